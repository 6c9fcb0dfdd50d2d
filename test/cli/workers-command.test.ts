/**
 * `flotilla workers` (issue #33) against a real PostgreSQL: a `flotilla worker --slots 2` process, a lease
 * held as a controller's, a run waiting on the queue; then the worker killed with SIGKILL shows as dead once its
 * heartbeat lapsed by the database's clock.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { AgentRunMessage } from '../../src/cluster/agent-run-message.ts';
import { createDurableRunQueue } from '../../src/cluster/create-durable-run-queue.ts';
import { createLeaderLease } from '../../src/cluster/create-leader-lease.ts';
import type { ClusterStatus } from '../../src/cluster/read-cluster-status.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { killGroup, startWorker } from '../support/cluster-processes.ts';
import { FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { waitForCondition } from '../support/start-flotilla-process.ts';

const run = promisify(execFile);
const cluster = setUpClusterPostgres();
const { fixtures } = cluster;

const STEP_TIMEOUT = 90_000;

async function workers(cwd: string, args: string[] = ['--json']) {
  const { stdout } = await run(process.execPath, [FLOTILLA_BIN, 'workers', ...args], {
    cwd,
    env: { ...process.env, FLOTILLA_DATABASE_URL: cluster.url() },
  });
  return stdout;
}

describe('flotilla workers', () => {
  it('lists each worker with its slots, runs, heartbeat and state, the queue depth and the leader', async () => {
    const repo = await fixtures.configuredDemoRepository({
      checks: { command: null },
      cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 2 },
    });
    const env = cluster.env(repo.gitEnv);
    const worker = startWorker(fixtures, repo.root, env, 2);
    await waitForCondition(
      () => worker.output().includes('2 slot(s) taking runs'),
      STEP_TIMEOUT,
      'the worker to take runs',
      () => worker.output(),
    );
    const pool = new pg.Pool({ connectionString: cluster.url(), max: 2 });
    const queue = createDurableRunQueue({ databaseUrl: cluster.url(), logger: silentLogger });
    fixtures.defer(async () => {
      await queue.close();
      await pool.end();
    });
    await createLeaderLease({ pool, name: 'controller', holder: 'controller-a', ttlMs: 60_000 }).tryAcquire();

    const alive = JSON.parse(await workers(repo.root)) as ClusterStatus;
    expect(alive).toEqual({
      controller: { holder: 'controller-a', token: 1 },
      queued: 0,
      runsWithoutWorker: 0,
      workers: [
        {
          id: expect.stringMatching(/-\d+-[0-9a-f]{6}$/),
          host: expect.any(String),
          slots: 2,
          runsInProgress: 0,
          lastHeartbeat: expect.any(String),
          alive: true,
        },
      ],
    });
    expect(await workers(repo.root, [])).toMatch(
      /controller controller-a leads \(lease token 1\); 0 run\(s\) queued\nWORKER +HOST +SLOTS +RUNNING +HEARTBEAT +STATE\n\S+ +\S+ +2 +0 +\d+s ago +alive\n/,
    );

    // A run no worker can take now: the worker is killed, so it waits on the queue.
    await killGroup(worker.pid);
    await queue.configure({ fleetConcurrency: 1 });
    // The message is never run (no worker is left): any plain data stands for the start params.
    await queue.enqueue('waiting-run', {
      params: {},
      runtime: { role: 'implementor' },
      baseCommit: 'HEAD',
    } as unknown as AgentRunMessage);
    // Dead once its heartbeat lapsed by the database's clock: asked until it says so.
    let status: ClusterStatus | null = null;
    for (let tries = 0; status?.workers[0]?.alive !== false; tries += 1) {
      if (tries > 400) throw new Error(`the killed worker never showed as dead: ${JSON.stringify(status)}`);
      status = JSON.parse(await workers(repo.root)) as ClusterStatus;
    }
    expect(status).toMatchObject({ queued: 1, workers: [{ slots: 2, runsInProgress: 0, alive: false }] });
    expect(await workers(repo.root, [])).toMatch(/1 run\(s\) queued\n[\s\S]* +2 +0 +\d+s ago +dead\n/);
  }, 200_000);

  it('says one machine has no workers when the config has no cluster section', async () => {
    const repo = await fixtures.configuredDemoRepository({ checks: { command: null } });
    await expect(workers(repo.root)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('flotilla workers: flotilla.config.json has no "cluster" section'),
    });
  });
});
