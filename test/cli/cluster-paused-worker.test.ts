/**
 * A paused worker (issue #33): a controller and two `flotilla worker` processes over a real PostgreSQL, the
 * real Claude Agent SDK in the OS sandbox against the scripted model server. The worker slot that runs the
 * implementor is paused with SIGSTOP (it and its agent's processes: a suspended machine) while its agent
 * waits on the model, past its heartbeat timeout: the controller requeues the run, the other worker runs it
 * and the loop completes. Then the paused slot is woken (SIGCONT) with its agent's answer waiting: the slot
 * exits and its agent dies with it, asking the model nothing more; the run completed once and its usage was
 * counted once (the reply of the worker that finished it).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDurableRunQueue } from '../../src/cluster/create-durable-run-queue.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { agentProcessesOf } from '../support/agent-processes-of.ts';
import {
  oneItemLoopRoutes,
  sharedRemoteWithClones,
  startWorker,
  untilTakingRuns,
} from '../support/cluster-processes.ts';
import { startFlotillaRun } from '../support/flotilla-run-process.ts';
import { readClusterState } from '../support/read-cluster-state.ts';
import { setUpClusterPostgres } from '../support/set-up-cluster-postgres.ts';
import { flotillaLogTail, waitForCondition } from '../support/start-flotilla-process.ts';

const cluster = setUpClusterPostgres();
const { fixtures, query } = cluster;

const TIMEOUT = 280_000;
const STEP_TIMEOUT = 90_000;

/** The process runs (not ended, not a zombie waiting for its parent). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

const signal = (pids: readonly number[], name: NodeJS.Signals) => {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // Ended meanwhile.
    }
  }
};

describe('flotilla worker: a slot paused past its heartbeat', () => {
  it(
    'the run finishes on another worker, once; woken, the paused slot and its agent stop and answer nothing',
    async () => {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      fixtures.defer(async () => release());
      const server = await fixtures.serve({ name: 'paused-worker', routes: oneItemLoopRoutes(released) });
      const repo = await fixtures.configuredDemoRepository({
        checks: { command: null },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        cluster: { postgres: '$FLOTILLA_DATABASE_URL', heartbeatTimeout: 3 },
      });
      const [sleeperClone, survivorClone] = await sharedRemoteWithClones(fixtures, repo.root, ['a', 'b']);
      if (sleeperClone === undefined || survivorClone === undefined) throw new Error('no clones');
      const env = cluster.env(repo.gitEnv, server.url);
      const sleeper = startWorker(fixtures, sleeperClone, env);
      await untilTakingRuns(sleeper, STEP_TIMEOUT);
      const controller = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
      let exitCode: number | null | undefined;
      void controller.exited.then((code) => {
        exitCode = code;
      });
      const context = () =>
        [controller.output(), flotillaLogTail(repo.root, 60), sleeper.output()].join('\n---\n');
      // The planner's run and the implementor's both go to the only worker; the implementor's first
      // request waits (held by the model server) until the test releases it.
      await waitForCondition(
        () => server.requestsFor('implementor').length === 1,
        STEP_TIMEOUT,
        "the implementor's first request",
        context,
      );
      const [slot] = await query<{ pid: number; executor_id: string }>(
        `SELECT w.pid, w.executor_id FROM flotilla_workers w
           JOIN dbos.workflow_status s ON s.executor_id = w.executor_id WHERE s.status = 'PENDING'`,
      );
      if (slot === undefined) throw new Error(`no slot runs the implementor\n${context()}`);
      const agent = agentProcessesOf(sleeperClone);
      expect(agent.length).toBeGreaterThan(0);
      const paused = [slot.pid, ...agent];
      signal(paused, 'SIGSTOP');
      fixtures.defer(async () => signal(paused, 'SIGCONT'));

      // The other worker: the run is requeued to it once the paused slot's heartbeat lapsed.
      const survivor = startWorker(fixtures, survivorClone, env);
      await waitForCondition(
        () => exitCode !== undefined,
        STEP_TIMEOUT,
        'the loop to complete',
        () => [context(), survivor.output()].join('\n---\n'),
      );
      expect(exitCode).toBe(0);
      const implementorRequests = server.requestsFor('implementor').length;
      expect(implementorRequests).toBe(3); // the paused agent's first, the survivor's two

      // Wake the paused slot with its agent's answer on its way: it must stop, its agent with it.
      release();
      signal(paused, 'SIGCONT');
      await waitForCondition(
        () => paused.every((pid) => !isRunning(pid)),
        STEP_TIMEOUT,
        'the woken slot and its agent to stop',
        () => sleeper.output(),
      );
      expect(sleeper.output()).toMatch(/slot 0 stops: .*(heartbeat|paused)/);
      // Its agent asked the model nothing more.
      expect(server.requestsFor('implementor')).toHaveLength(implementorRequests);

      // The run history and ledger are in PostgreSQL in cluster mode (src/storage/README.md "Two backends").
      const runs = readClusterState(cluster.url(), (sql) =>
        sql.all<{ session_id: string; role: string; status: string; cost_usd: number | null }>(
          'SELECT session_id, role, status, cost_usd FROM agent_runs ORDER BY requested_at, rowid',
        ),
      );
      expect(runs.map(({ role, status }) => ({ role, status }))).toEqual([
        { role: 'planner', status: 'completed' },
        { role: 'implementor', status: 'completed' },
        { role: 'reviewer', status: 'completed' },
      ]);
      const implementor = runs[1];
      if (implementor === undefined) throw new Error('no implementor run');
      const [workflow] = await query<{ status: string; executor_id: string }>(
        'SELECT status, executor_id FROM dbos.workflow_status WHERE workflow_uuid = $1',
        [implementor.session_id],
      );
      expect(workflow?.status).toBe('SUCCESS');
      expect(workflow?.executor_id).toContain(`-${survivor.pid}-`);
      // Usage counted once: the ledger holds what the replies the workers finished cost, no more.
      const queue = createDurableRunQueue({ databaseUrl: cluster.url(), logger: silentLogger });
      fixtures.defer(() => queue.close());
      let replies = 0;
      for (const run of runs) replies += (await queue.result(run.session_id)).usage?.costUSD ?? 0;
      const ledger = readClusterState(
        cluster.url(),
        (sql) => sql.get<{ usd: number }>('SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM budget_ledger')?.usd,
      );
      expect(replies).toBeGreaterThan(0);
      expect(ledger).toBeCloseTo(replies, 9);
    },
    TIMEOUT,
  );
});
