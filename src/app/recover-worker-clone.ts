import type { FlotillaConfig, FlotillaPaths } from '../config/index.ts';
import type { Logger } from '../logging/logger.ts';
import { acquireRunLock, type RunLock } from './acquire-run-lock.ts';
import { createCloneWorktrees } from './create-clone-worktrees.ts';
import { reapOrphanProcesses } from './reap-orphan-processes.ts';
import { reapRunStateDirs } from './reap-run-state-dirs.ts';

export interface WorkerCloneRecovery {
  /** The clone's lock, held for the worker's life: released when it stops. */
  lock: RunLock;
  reapedWorktrees: string[];
  reapedProcesses: number;
  reapedStateDirs: string[];
}

/**
 * What `flotilla worker` does in its clone before its slots take runs (issue #33: a killed worker's worktree
 * is cleaned when its machine comes back). It takes the clone's lock as a worker — no `flotilla run` and no
 * other worker may share the clone, since this ends their agents — then ends the agents a killed worker's
 * slots left running and removes their run state and worktrees. Their runs were requeued by the controller
 * when the heartbeat lapsed, and a worker keeps no session for later (create-run-executor.ts), so nothing is
 * kept. Throws RunLockError when the clone is taken.
 */
export async function recoverWorkerClone(options: {
  repoRoot: string;
  config: FlotillaConfig;
  paths: FlotillaPaths;
  logger: Logger;
}): Promise<WorkerCloneRecovery> {
  const { repoRoot, config, paths, logger } = options;
  const lock = acquireRunLock(paths.stateDir, { holder: 'worker' });
  try {
    const reapedProcesses = reapOrphanProcesses(paths).length;
    const reapedStateDirs = await reapRunStateDirs(paths);
    const worktrees = createCloneWorktrees({ repoRoot, config, logger, paths }, false);
    const reapedWorktrees = await worktrees.reapStaleWorktrees();
    await worktrees.settle();
    return { lock, reapedWorktrees, reapedProcesses, reapedStateDirs };
  } catch (error) {
    lock.release();
    throw error;
  }
}
