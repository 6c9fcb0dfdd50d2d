/**
 * An executor process for the run queue's tests: `serve-test-runs.ts <databaseUrl> <executorID> <ttlMs>`.
 * Heartbeats like a worker slot; each run it takes is recorded in `test_runs` (with how many runs were in
 * flight when it started, by the database), held `message.params.prompt` milliseconds (`hold` holds until
 * killed), then answered with a reviewer result naming this executor. Prints `ready` once serving.
 */
import pg from 'pg';
import { silentLogger } from '../../logging/logger.ts';
import { createDurableRunQueue } from '../create-durable-run-queue.ts';
import { createWorkerRegistry } from '../create-worker-registry.ts';
import { startWorkerHeartbeat } from '../start-worker-heartbeat.ts';

const [databaseUrl = '', executorID = '', ttl = '2000'] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const ttlMs = Number(ttl);
await startWorkerHeartbeat({
  registry: createWorkerRegistry({ pool, ttlMs }),
  row: { executorID, worker: 'test', host: 'localhost', pid: process.pid },
  intervalMs: Math.floor(ttlMs / 4),
  logger: silentLogger,
  onLost: () => process.exit(3),
});
const queue = createDurableRunQueue({ databaseUrl, logger: silentLogger, pollIntervalMs: 100 });
await queue.serve({
  executorID,
  async execute(message, execution) {
    await pool.query(
      `INSERT INTO test_runs (run_id, executor, in_flight)
         SELECT $1, $2, count(*) + 1 FROM test_runs WHERE ended_at IS NULL`,
      [execution.runID, executorID],
    );
    const { prompt } = message.params;
    await new Promise((resolve) => {
      if (prompt !== 'hold') setTimeout(resolve, Number(prompt));
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
  },
});
process.stdout.write('ready\n');
