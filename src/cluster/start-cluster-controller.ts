import pg from 'pg';
import type { Logger } from '../logging/logger.ts';
import { adoptPublishedBranches } from './adopt-published-branches.ts';
import { createClusterGit } from './create-cluster-git.ts';
import { createDurableRunQueue, type DurableRunQueue } from './create-durable-run-queue.ts';
import type { RemoteRuntimeDeps } from './create-remote-runtime.ts';
import { createRunMessages } from './create-run-messages.ts';
import { createRunProgress } from './create-run-progress.ts';
import { createWorkerRegistry } from './create-worker-registry.ts';
import { resolveClusterDatabaseUrl } from './resolve-cluster-database-url.ts';
import { startDeadWorkerSweep } from './start-dead-worker-sweep.ts';

/** The config's `cluster` section (src/config/): what this floor needs of it. */
export interface ClusterSettings {
  /** `$VARIABLE` holding the PostgreSQL URL. */
  postgres: string;
  /** The git remote the machines share. */
  remote: string;
  /** Seconds a worker's heartbeat lasts unrenewed. */
  heartbeatTimeout: number;
  /** Seconds the controller's lease lasts unrenewed. */
  leaseTimeout: number;
}

export interface ClusterControllerOptions {
  settings: ClusterSettings;
  env: Readonly<Record<string, string | undefined>>;
  repoRoot: string;
  defaultBranch: string;
  /** `scheduler.maxConcurrentAgents`: the runs at once across every worker. */
  fleetConcurrency: number;
  logger: Logger;
}

export interface ClusterController {
  /** What the remote runtimes need (create-remote-runtime.ts). */
  remoteDeps: RemoteRuntimeDeps;
  /** The runs a new leader can wait on, with what they were enqueued with (DurableRunQueue.adoptable). */
  adoptable: DurableRunQueue['adoptable'];
  close(): Promise<void>;
}

/**
 * The controller's side of a cluster (issue #33): the durable run queue with the fleet's limit, the git
 * remote runs start from, and the sweep that gives a dead worker's runs to another.
 */
export async function startClusterController(options: ClusterControllerOptions): Promise<ClusterController> {
  const { logger } = options;
  const resolved = resolveClusterDatabaseUrl(options.settings.postgres, options.env);
  if (!resolved.ok) throw new Error(`flotilla.config.json: cluster.postgres: ${resolved.problem}`);
  const queue = createDurableRunQueue({ databaseUrl: resolved.url, logger });
  // The sweep's queries, and each running run's progress and conversation polls.
  const pool = new pg.Pool({ connectionString: resolved.url, max: 4 });
  pool.on('error', (error) => logger.warn('cluster database connection error', { error: error.message }));
  try {
    await queue.configure({ fleetConcurrency: options.fleetConcurrency });
  } catch (error) {
    await queue.close().catch(() => undefined);
    await pool.end();
    throw new Error(
      `cluster: could not reach PostgreSQL at $${resolved.variable}: ${error instanceof Error ? error.message : error}`,
    );
  }
  await adoptPublished(options);
  const ttlMs = options.settings.heartbeatTimeout * 1000;
  const registry = createWorkerRegistry({ pool, ttlMs });
  const sweep = startDeadWorkerSweep({
    registry,
    requeueRunsOf: (executorID) => queue.requeueRunsOf(executorID),
    requeueOrphanedRuns: (alive) => queue.requeueOrphanedRuns(alive),
    intervalMs: Math.max(250, Math.floor(ttlMs / 3)),
    logger,
  });
  const git = createClusterGit({
    repoRoot: options.repoRoot,
    remote: options.settings.remote,
    defaultBranch: options.defaultBranch,
  });
  return {
    remoteDeps: {
      queue,
      git,
      logger,
      progress: createRunProgress(pool),
      messages: createRunMessages(pool),
    },
    adoptable: (runIDs) => queue.adoptable(runIDs),
    async close() {
      await sweep.stop();
      await queue.close();
      await pool.end();
    },
  };
}

/**
 * Before leading: what the previous leader published on the shared remote (its default branch, its revision
 * branches) brought into this clone (adopt-published-branches.ts), so a standby in another clone continues
 * with the revisions the shared tracker names. A remote that cannot be reached is a warning: the first
 * controller of a cluster may have published nothing yet.
 */
async function adoptPublished(options: ClusterControllerOptions): Promise<void> {
  const { logger } = options;
  try {
    const adopted = await adoptPublishedBranches({
      repoRoot: options.repoRoot,
      remote: options.settings.remote,
      defaultBranch: options.defaultBranch,
    });
    for (const entry of adopted) {
      if (entry.outcome === 'kept') {
        logger.warn(`cluster: kept ${entry.branch} as it is: ${entry.reason}`, { branch: entry.branch });
      } else {
        logger.info(`cluster: ${entry.outcome} ${entry.branch} from the published branches`, {
          branch: entry.branch,
        });
      }
    }
  } catch (error) {
    logger.warn(
      `cluster: could not fetch the published branches from ${options.settings.remote}; starting from this clone's`,
      { error: error instanceof Error ? error.message : String(error) },
    );
  }
}
