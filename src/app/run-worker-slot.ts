import { type ClusterExecutor, startClusterExecutor } from '../cluster/start-cluster-executor.ts';
import type { FlotillaConfig } from '../config/index.ts';
import { resolveFlotillaPaths } from '../config/index.ts';
import type { Logger } from '../logging/logger.ts';
import { createCloneWorktrees } from './create-clone-worktrees.ts';
import { createRuntimeSet } from './create-runtime-set.ts';
import { openClusterState } from './open-cluster-state.ts';

export interface WorkerSlotOptions {
  /** The worker's clone of the repository. */
  repoRoot: string;
  config: FlotillaConfig;
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** The worker this slot belongs to (`flotilla worker`'s id: host, pid, random part). */
  workerID: string;
  slot: number;
  /** Called once when the slot must stop at once: its heartbeat was lost (fail closed). */
  onLost(reason: string): void;
}

/**
 * One slot of `flotilla worker` (issue #33): this clone's runtimes — the same guards, sandbox and worktrees
 * as `flotilla run` — serving the cluster's run queue as one executor (src/cluster/). A worker with
 * `--slots N` runs N of these, one process each.
 */
export async function runWorkerSlot(options: WorkerSlotOptions): Promise<ClusterExecutor> {
  const { repoRoot, config, logger } = options;
  if (config.cluster === undefined)
    throw new Error('flotilla.config.json: no "cluster" section: `flotilla worker` needs cluster.postgres');
  // The state schema up to date before a run: the slot copies transcripts into its table (migration 007).
  openClusterState(config, options.env)?.close();
  const paths = resolveFlotillaPaths(repoRoot);
  const runtimeSet = await createRuntimeSet({ repoRoot, config, logger, paths });
  // Slots share the clone: none prepares a spare the others could race for.
  const worktrees = createCloneWorktrees({ repoRoot, config, logger, paths }, false);
  const release = async () => {
    await worktrees.settle().catch(() => undefined);
    await runtimeSet.close();
  };
  let executor: ClusterExecutor;
  try {
    executor = await startClusterExecutor({
      settings: config.cluster,
      env: options.env,
      repoRoot,
      defaultBranch: config.defaultBranch,
      workerID: options.workerID,
      slot: options.slot,
      runtimes: runtimeSet.createAdapters(worktrees),
      logger,
      onLost: options.onLost,
    });
  } catch (error) {
    await release();
    throw error;
  }
  return {
    executorID: executor.executorID,
    async stop() {
      await executor.stop();
      await release();
    },
  };
}
