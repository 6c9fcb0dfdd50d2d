import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import type { RuntimeAdapters } from '../engine/runtime-contract/index.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import { createClusterGit } from './create-cluster-git.ts';
import { createDurableRunQueue } from './create-durable-run-queue.ts';
import { createRunExecutor } from './create-run-executor.ts';
import { createRunMessages } from './create-run-messages.ts';
import { createRunProgress } from './create-run-progress.ts';
import { createTranscriptChunks } from './create-transcript-chunks.ts';
import { createWorkerRegistry } from './create-worker-registry.ts';
import { guardRunExecutor } from './guard-run-executor.ts';
import { resolveClusterDatabaseUrl } from './resolve-cluster-database-url.ts';
import type { ClusterSettings } from './start-cluster-controller.ts';
import { startWorkerHeartbeat } from './start-worker-heartbeat.ts';

export interface ClusterExecutorOptions {
  settings: ClusterSettings;
  env: Readonly<Record<string, string | undefined>>;
  /** The worker's clone. */
  repoRoot: string;
  defaultBranch: string;
  /** The worker this executor is a slot of, and which slot. */
  workerID: string;
  slot: number;
  /** The clone's runtimes (the composition root builds them as `flotilla run` does). */
  runtimes: RuntimeAdapters;
  logger: Logger;
  /** The heartbeat was lost: the process must stop at once (fail closed). */
  onLost(reason: string): void;
}

export interface ClusterExecutor {
  executorID: string;
  /** Stops taking runs, puts a run in flight back on the queue, removes the heartbeat row. */
  stop(): Promise<void>;
}

/**
 * One executor of the cluster (a slot of `flotilla worker`, issue #33): its heartbeat row first, then the
 * durable queue served with the clone's runtimes, one run at a time.
 */
export async function startClusterExecutor(options: ClusterExecutorOptions): Promise<ClusterExecutor> {
  const { settings, logger } = options;
  const resolved = resolveClusterDatabaseUrl(settings.postgres, options.env);
  if (!resolved.ok) throw new Error(`flotilla.config.json: cluster.postgres: ${resolved.problem}`);
  const executorID = `${options.workerID}/${options.slot}-${randomUUID().slice(0, 8)}`;
  const git = createClusterGit({
    repoRoot: options.repoRoot,
    remote: settings.remote,
    defaultBranch: options.defaultBranch,
  });
  // The heartbeat's renewals, and the run's progress, conversation messages and transcript sends beside them.
  const pool = new pg.Pool({ connectionString: resolved.url, max: 3 });
  pool.on('error', (error) => logger.warn('cluster database connection error', { error: error.message }));
  const ttlMs = settings.heartbeatTimeout * 1000;
  const registry = createWorkerRegistry({ pool, ttlMs });
  const queue = createDurableRunQueue({ databaseUrl: resolved.url, logger });
  let heartbeat: Awaited<ReturnType<typeof startWorkerHeartbeat>> | null = null;
  try {
    // The row first: a run this executor starts always has a heartbeat the controller can see lapse.
    heartbeat = await startWorkerHeartbeat({
      registry,
      row: { executorID, worker: options.workerID, host: hostname(), pid: process.pid },
      ttlMs,
      intervalMs: Math.max(200, Math.floor(ttlMs / 3)),
      logger,
      onLost: options.onLost,
    });
    const holds = heartbeat.confirm;
    await queue.serve({
      executorID,
      execute: guardRunExecutor(
        createRunExecutor({
          executorID,
          runtimes: options.runtimes,
          prepareBase: (base) => git.receive(base),
          progress: createRunProgress(pool),
          messages: createRunMessages(pool),
          transcripts: createTranscriptChunks(pool),
          logger,
        }),
        () => holds(),
      ),
    });
  } catch (error) {
    await heartbeat?.stop();
    await queue.close().catch(() => undefined);
    await pool.end().catch(() => undefined);
    throw new Error(`cluster: this worker slot could not start: ${messageOf(error)}`);
  }
  const beating = heartbeat;
  logger.info('worker slot taking runs', { executorID });
  return {
    executorID,
    async stop() {
      await queue.close().catch(() => undefined);
      // Runs this executor had started go back on the queue now, not a heartbeat timeout later.
      const control = createDurableRunQueue({ databaseUrl: resolved.url, logger });
      await control
        .requeueRunsOf(executorID)
        .catch((error: unknown) => logger.warn('could not requeue runs', { error: messageOf(error) }))
        .finally(() => control.close());
      await beating.stop();
      await pool.end().catch(() => undefined);
    },
  };
}
