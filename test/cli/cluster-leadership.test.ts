/**
 * Controller leadership end to end (issue #33): two `flotilla run --headless --until-idle` controllers with
 * `cluster.postgres` on the same repository and a `flotilla worker` in a clone of the shared remote, over a
 * real PostgreSQL. The first controller leads (lease token 1), the second waits as a standby. The leader is
 * killed with SIGKILL while the implementor's run waits on the model: the standby takes the lease (token 2)
 * and adopts the run its predecessor left on the worker — it waits on its workflow instead of dispatching the
 * item again — and the loop completes with that one implementor run.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  oneItemLoopRoutes,
  sharedRemoteWithClones,
  startWorker,
  untilTakingRuns,
} from '../support/cluster-processes.ts';
import { FLOTILLA_BIN } from '../support/create-run-fixtures.ts';
import { startFlotillaRun } from '../support/flotilla-run-process.ts';
import { readClusterState } from '../support/read-cluster-state.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';

const run = promisify(execFile);
const cluster = setUpClusterPostgres();
const { fixtures, query } = cluster;

const TIMEOUT = 280_000;
const STEP_TIMEOUT = 90_000;

describe('flotilla run in cluster mode: one leader, a standby that takes over', () => {
  it(
    'the standby takes over after kill -9 of the leader, adopts the run in flight, and the loop completes',
    async () => {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      fixtures.defer(async () => release());
      const server = await fixtures.serve({ name: 'leadership', routes: oneItemLoopRoutes(released) });
      const repo = await fixtures.configuredDemoRepository({
        checks: { command: null },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        scheduler: { retryBaseDelay: 1, retryMaxDelay: 1 },
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 3, leaseTimeout: 2 },
      });
      const [clone] = await sharedRemoteWithClones(fixtures, repo.root, ['worker']);
      if (clone === undefined) throw new Error('no clone');
      const env = cluster.env(repo.gitEnv, server.url);
      const worker = startWorker(fixtures, clone, env);
      await untilTakingRuns(worker, STEP_TIMEOUT);

      const leader = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
      await leader.waitForOutput("as the cluster's controller (lease token 1)", STEP_TIMEOUT);
      const standby = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
      await standby.waitForOutput(/standby — controller \S+ leads \(lease token 1\)/, STEP_TIMEOUT);
      const context = () =>
        [leader.output(), standby.output(), flotillaLogTail(repo.root, 60), worker.output()].join('\n---\n');
      await waitForCondition(
        () => server.requestsFor('implementor').length === 1,
        STEP_TIMEOUT,
        "the implementor's first request",
        context,
      );
      // The standby has started nothing while the leader leads.
      expect(standby.output()).not.toContain('flotilla running in');
      // `flotilla workers` from the worker's machine: the leader, and the run its one slot is running.
      const { stdout } = await run(process.execPath, [FLOTILLA_BIN, 'workers', '--json'], {
        cwd: clone,
        env: { ...process.env, ...env },
      });
      expect(JSON.parse(stdout)).toMatchObject({
        controller: { holder: expect.stringContaining(`-${leader.pid}-`), token: 1 },
        queued: 0,
        workers: [{ slots: 1, runsInProgress: 1, alive: true }],
      });

      // The run in flight: its workflow, started on the worker while the leader led.
      const [inFlight] = await query<{ workflow_uuid: string }>(
        "SELECT workflow_uuid FROM dbos.workflow_status WHERE status = 'PENDING'",
      );
      const killedAt = Date.now();
      await leader.killGroup();
      await standby.waitForOutput("as the cluster's controller (lease token 2)", STEP_TIMEOUT);
      // Measured, not asserted (README "Running on several machines"): from the kill to the new leader's start.
      process.stdout.write(`cluster failover: the standby led ${Date.now() - killedAt} ms after kill -9\n`);
      // The new leader adopted the run (it waits on its workflow) before the agent is let go on.
      await waitForCondition(
        () => flotillaLogTail(repo.root, 200).includes('adopted the runs a previous controller left'),
        STEP_TIMEOUT,
        'the new leader to adopt the run in flight',
        context,
      );
      release();

      let exitCode: number | null | undefined;
      void standby.exited.then((code) => {
        exitCode = code;
      });
      await waitForCondition(() => exitCode !== undefined, STEP_TIMEOUT, 'the new leader to finish', context);
      expect(exitCode).toBe(0);

      // In cluster mode the run history is in PostgreSQL (src/storage/README.md "Two backends").
      const runs = readClusterState(cluster.url(), (sql) =>
        sql.all<{ session_id: string; role: string; status: string }>(
          'SELECT session_id, role, status FROM agent_runs ORDER BY requested_at, rowid',
        ),
      );
      // The killed leader's implementor run completed once: adopted, never recorded as interrupted nor run again.
      expect(runs.map(({ role, status }) => ({ role, status }))).toEqual([
        { role: 'planner', status: 'completed' },
        { role: 'implementor', status: 'completed' },
        { role: 'reviewer', status: 'completed' },
      ]);
      expect(runs[1]?.session_id).toBe(inFlight?.workflow_uuid);
      // One agent on the item: the implementor's two scripted steps, each asked once.
      expect(server.requestsFor('implementor')).toHaveLength(2);
      // On the queue: three workflows, each run once to its reply.
      const statuses = await query<{ workflow_uuid: string; status: string }>(
        'SELECT workflow_uuid, status FROM dbos.workflow_status ORDER BY created_at',
      );
      expect(statuses.map(({ workflow_uuid, status }) => ({ workflow_uuid, status }))).toEqual(
        runs.map(({ session_id }) => ({ workflow_uuid: session_id, status: 'SUCCESS' })),
      );
      expect(await query('SELECT holder, token FROM flotilla_leases')).toEqual([
        { holder: expect.stringContaining(`-${standby.pid}-`), token: '2' },
      ]);
      expect(standby.output()).toContain('#1 approved, waiting for you to merge it');
      const revision = execFileSync('git', ['show', 'flotilla/1:src/greet.js'], {
        cwd: repo.root,
      }).toString();
      expect(revision).toContain('Hello, ');
    },
    TIMEOUT,
  );
});
