import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../test/support/start-postgres.ts';
import { silentLogger } from '../logging/logger.ts';
import type { AgentRunMessage } from './agent-run-message.ts';
import { createDurableRunQueue, type DurableRunQueue } from './create-durable-run-queue.ts';
import { createWorkerRegistry } from './create-worker-registry.ts';
import { startDeadWorkerSweep } from './start-dead-worker-sweep.ts';

const SCRIPT = fileURLToPath(new URL('./test-support/serve-test-runs.ts', import.meta.url));
const TTL_MS = 1500;

let postgres: TestPostgres;
let pool: pg.Pool;
let queue: DurableRunQueue;
const executors: ChildProcess[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
  await pool.query(`CREATE TABLE test_runs (
    run_id TEXT NOT NULL, executor TEXT NOT NULL, in_flight INTEGER NOT NULL,
    started_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(), ended_at TIMESTAMPTZ)`);
  queue = createDurableRunQueue({ databaseUrl: postgres.url, logger: silentLogger, pollIntervalMs: 100 });
}, 60_000);
afterEach(async () => {
  for (const sweep of sweeps.splice(0)) await sweep.stop();
  for (const child of executors.splice(0)) {
    child.kill('SIGKILL');
    child.kill('SIGCONT');
  }
  await pool.query('DELETE FROM test_runs');
});
afterAll(async () => {
  await queue?.close();
  await pool?.end();
  postgres?.stop();
});

/** An executor process (test-support/serve-test-runs.ts), once it serves the queue. */
async function startExecutor(executorID: string, ttlMs = TTL_MS, intervalMs?: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      SCRIPT,
      postgres.url,
      executorID,
      String(ttlMs),
      ...(intervalMs === undefined ? [] : [String(intervalMs)]),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  executors.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`executor ${executorID} exited (${code}) before serving`)));
  });
  return child;
}

let runCount = 0;
/** A run whose executor holds it `hold` ms ('hold': until killed; 'hold:<id>': on that executor only). */
function message(hold: string): { runID: string; message: AgentRunMessage } {
  runCount += 1;
  return {
    runID: `run-${runCount}`,
    message: {
      params: {
        role: 'reviewer',
        sessionID: `run-${runCount}`,
        prompt: hold,
        workItemID: '1',
        revisionID: 'r1',
      },
      runtime: { role: 'reviewer' },
      baseCommit: '0'.repeat(40),
    },
  };
}

/** Resolves with the process's exit code once it exited. */
const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

async function waitFor(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; !(await condition()); tries += 1) {
    if (tries > 600) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The controller's sweep, as start-cluster-controller.ts runs it, until the test ends. */
function sweepDeadWorkers(): void {
  const sweep = startDeadWorkerSweep({
    registry: createWorkerRegistry({ pool, ttlMs: TTL_MS }),
    requeueRunsOf: (executorID) => queue.requeueRunsOf(executorID),
    requeueOrphanedRuns: (alive) => queue.requeueOrphanedRuns(alive),
    intervalMs: 250,
    logger: silentLogger,
  });
  sweeps.push(sweep);
}
const sweeps: { stop(): Promise<void> }[] = [];

const rows = async () =>
  (
    await pool.query<{ run_id: string; executor: string; in_flight: number }>(
      'SELECT run_id, executor, in_flight FROM test_runs ORDER BY started_at',
    )
  ).rows;

describe('the durable run queue (DBOS on a real PostgreSQL)', () => {
  it('runs at most the fleet limit at once, and one run at a time per executor', async () => {
    await queue.configure({ fleetConcurrency: 2 });
    await Promise.all(['a', 'b', 'c'].map((id) => startExecutor(`limits-${id}`)));
    const runs = Array.from({ length: 6 }, () => message('400'));
    for (const run of runs) await queue.enqueue(run.runID, run.message);
    const replies = await Promise.all(runs.map((run) => queue.result(run.runID)));

    expect(replies.every((reply) => reply.ok)).toBe(true);
    const started = await rows();
    expect(started.map((row) => row.run_id).sort()).toEqual(runs.map((run) => run.runID).sort());
    // In flight when each started, counted by the database: never above the fleet's 2, and 2 was reached.
    expect(Math.max(...started.map((row) => row.in_flight))).toBe(2);
    // Each reply names the executor that recorded the run.
    for (const reply of replies) {
      const row = started.find((entry) => entry.executor === reply.executor);
      expect(row).toBeDefined();
    }
    // One at a time per executor: an executor's runs never overlap (started-after-ended, by the database).
    const overlaps = await pool.query(
      `SELECT count(*)::int AS n FROM test_runs a JOIN test_runs b
         ON a.executor = b.executor AND a.run_id < b.run_id
        WHERE a.started_at < b.ended_at AND b.started_at < a.ended_at`,
    );
    expect(overlaps.rows[0].n).toBe(0);
  }, 60_000);

  it("gives a killed executor's run to another executor once its heartbeat lapses", async () => {
    await queue.configure({ fleetConcurrency: 5 });
    const doomed = await startExecutor('doomed');
    const run = message('hold');
    await queue.enqueue(run.runID, run.message);
    // The doomed executor is the only one: it takes the run and holds it.
    for (let tries = 0; (await rows()).length === 0; tries += 1) {
      if (tries > 200) throw new Error('the run was never taken');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    doomed.kill('SIGKILL');
    // The survivor finishes what it takes at once; `hold` only holds on the doomed one.
    await startExecutor('survivor');
    await pool.query("UPDATE test_runs SET ended_at = clock_timestamp() WHERE executor = 'doomed'");
    const sweep = startDeadWorkerSweep({
      registry: createWorkerRegistry({ pool, ttlMs: TTL_MS }),
      requeueRunsOf: (executorID) => queue.requeueRunsOf(executorID),
      intervalMs: 250,
      logger: silentLogger,
    });
    try {
      // The requeued run still holds on the survivor: its prompt says so. Cancel proves the path ends.
      const taken = async () => (await rows()).some((row) => row.executor === 'survivor');
      for (let tries = 0; !(await taken()); tries += 1) {
        if (tries > 400) throw new Error('the run never reached the survivor');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const executorsOfRun = (await rows())
        .filter((row) => row.run_id === run.runID)
        .map((row) => row.executor);
      expect(executorsOfRun).toEqual(['doomed', 'survivor']);
      await queue.cancel(run.runID);
      await expect(queue.result(run.runID)).rejects.toThrow(/cancelled/);
    } finally {
      await sweep.stop();
    }
  }, 60_000);

  it('an executor paused (SIGSTOP) past its heartbeat timeout mid-run: the run finishes elsewhere, once; woken (SIGCONT), it exits answering nothing', async () => {
    await queue.configure({ fleetConcurrency: 5 });
    const sleeper = await startExecutor('sleeper');
    const run = message('hold:sleeper');
    await queue.enqueue(run.runID, run.message);
    await waitFor('the sleeper to take the run', async () => (await rows()).length === 1);
    sleeper.kill('SIGSTOP');
    sweepDeadWorkers();
    await startExecutor('survivor');
    const reply = await queue.result(run.runID);
    expect(reply).toMatchObject({ ok: true, executor: 'survivor' });

    sleeper.kill('SIGCONT');
    // Its heartbeat lapsed while it slept: it exits (3: heartbeat lost) on waking, before anything else.
    expect(await exited(sleeper)).toBe(3);
    const ran = await rows();
    expect(ran.map((row) => row.executor)).toEqual(['sleeper', 'survivor']);
    // The survivor's reply stands: the sleeper's execution never recorded one.
    expect(await queue.result(run.runID)).toEqual(reply);
    const workflow = await pool.query<{ status: string; executor_id: string }>(
      'SELECT status, executor_id FROM dbos.workflow_status WHERE workflow_uuid = $1',
      [run.runID],
    );
    expect(workflow.rows).toEqual([{ status: 'SUCCESS', executor_id: 'survivor' }]);
  }, 60_000);

  it('a run an executor dequeued after it was declared dead is never started there, and is requeued', async () => {
    await queue.configure({ fleetConcurrency: 5 });
    // A slow heartbeat (every 5 s, alive 30 s): the executor dequeues long before it renews again.
    const stale = await startExecutor('stale', 30_000, 5000);
    sweepDeadWorkers();
    // What a pause past the timeout leaves: its row lapsed and the sweep declared it dead (its runs requeued).
    await pool.query(
      "UPDATE flotilla_workers SET expires_at = now(), dead_at = now() WHERE executor_id = 'stale'",
    );
    const run = message('hold:stale');
    await queue.enqueue(run.runID, run.message);
    // It takes the run, finds its heartbeat gone before it starts it, and exits (3).
    expect(await exited(stale)).toBe(3);
    await startExecutor('survivor');
    const reply = await queue.result(run.runID);
    expect(reply).toMatchObject({ ok: true, executor: 'survivor' });
    expect((await rows()).map((row) => row.executor)).toEqual(['survivor']);
  }, 60_000);
});
