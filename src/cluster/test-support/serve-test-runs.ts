/**
 * An executor process for the run queue's tests: `serve-test-runs.ts <databaseUrl> <executorID> <ttlMs>
 * [intervalMs]`. Heartbeats like a worker slot (renewing every intervalMs, default a quarter of the TTL) and
 * runs guarded by it as a slot's are (guard-run-executor.ts); each run it starts is recorded in `test_runs`
 * (with how many runs were in flight when it started, by the database), held `message.params.prompt`
 * milliseconds (`hold` holds until killed; `hold:<executorID>` holds on that executor only, elsewhere it is
 * answered at once), then answered with a reviewer result naming this executor. Prints `ready` once serving.
 */
import pg from 'pg';
import { silentLogger } from '../../logging/logger.ts';
import { createDurableRunQueue } from '../create-durable-run-queue.ts';
import { createWorkerRegistry } from '../create-worker-registry.ts';
import { guardRunExecutor } from '../guard-run-executor.ts';
import { startWorkerHeartbeat } from '../start-worker-heartbeat.ts';

const [databaseUrl = '', executorID = '', ttl = '2000', interval] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const ttlMs = Number(ttl);
const heartbeat = await startWorkerHeartbeat({
  registry: createWorkerRegistry({ pool, ttlMs }),
  row: { executorID, worker: 'test', host: 'localhost', pid: process.pid },
  ttlMs,
  intervalMs: interval === undefined ? Math.floor(ttlMs / 4) : Number(interval),
  logger: silentLogger,
  onLost: () => process.exit(3),
});
const queue = createDurableRunQueue({ databaseUrl, logger: silentLogger, pollIntervalMs: 100 });
await queue.serve({
  executorID,
  execute: guardRunExecutor(async (message, execution) => {
    await pool.query(
      `INSERT INTO test_runs (run_id, executor, in_flight)
         SELECT $1, $2, count(*) + 1 FROM test_runs WHERE ended_at IS NULL`,
      [execution.runID, executorID],
    );
    const { prompt } = message.params;
    const holds = prompt === 'hold' || prompt === `hold:${executorID}`;
    await new Promise((resolve) => {
      if (!holds) setTimeout(resolve, prompt.startsWith('hold') ? 0 : Number(prompt));
    });
    await pool.query(
      'UPDATE test_runs SET ended_at = clock_timestamp() WHERE run_id = $1 AND executor = $2',
      [execution.runID, executorID],
    );
    return {
      ok: true,
      executor: executorID,
      usage: null,
      output: `ran on ${executorID}`,
      notes: [],
      result: { role: 'reviewer', review: { verdict: 'approve', summary: executorID, comments: [] } },
    };
  }, heartbeat.confirm),
});
process.stdout.write('ready\n');
