import type { ClusterController } from '../cluster/start-cluster-controller.ts';
import type { FlotillaConfig, resolveFlotillaPaths } from '../config/index.ts';
import type { AdoptedRun } from '../engine/adopt-runs.ts';
import type { Logger } from '../logging/logger.ts';
import { reapLocalScratch } from '../providers/local/git/reap-local-scratch.ts';
import type { EngineStatePersistence } from '../storage/index.ts';
import { isSpareWorktreePath } from '../workspace/create-worktree-manager.ts';
import type { WorktreeManager } from '../workspace/worktree-manager-types.ts';
import type { HeldLeadership } from './await-cluster-leadership.ts';
import { createCloneWorktrees } from './create-clone-worktrees.ts';
import { reapOrphanProcesses } from './reap-orphan-processes.ts';
import { reapRunStateDirs } from './reap-run-state-dirs.ts';
import { recoverRuns } from './recover-runs.ts';

export interface CrashRecoveryOptions {
  repoRoot: string;
  config: FlotillaConfig;
  logger: Logger;
  paths: ReturnType<typeof resolveFlotillaPaths>;
  persistence: EngineStatePersistence;
  cluster: ClusterController | null;
  held: HeldLeadership | null;
}

export interface CrashRecovery {
  /** What recovery found: runs a killed process left open, worktrees and processes it left behind. */
  recovered: {
    interruptedRuns: number;
    /** Cluster mode: runs the previous leader left on the workers that this one waits on (recover-runs.ts). */
    adoptedRuns: number;
    reapedWorktrees: string[];
    reapedProcesses: number;
  };
  /** Cluster mode: those runs, for EngineConfig.adoptedRuns, and their session ids (kept active). */
  adopted: AdoptedRun[];
  keep: ReadonlySet<string>;
  /** The repository's one worktree manager, for every runtime. */
  worktrees: WorktreeManager;
}

/**
 * Crash recovery, under the run lock (so nothing it removes belongs to a control plane still running): runs
 * left `running` are recorded as failed (in cluster mode adopted when their workflow goes on on the workers,
 * else cancelled there too: recover-runs.ts), orphaned agent and
 * checks processes are ended, then the state directories and worktrees of runs no waiting session keeps,
 * and the local provider's scratch, are removed. Sessions waiting for a human's answers keep theirs.
 */
export async function recoverAfterCrash(options: CrashRecoveryOptions): Promise<CrashRecovery> {
  const { repoRoot, logger, paths, persistence, cluster, held } = options;
  const runs = await recoverRuns(
    persistence,
    cluster === null || held === null ? null : { controller: cluster, held },
    logger,
  );
  // Agents and checks a killed Flotilla left running would keep working in worktrees about to be removed.
  const reapedProcesses = reapOrphanProcesses(paths).length;
  // Sessions waiting for a human's answers keep their worktree and state: they resume once answered.
  const waiting = persistence.listWaitingSessions().map((entry) => entry.session);
  const reapedRunStateDirs = await reapRunStateDirs(
    paths,
    waiting.flatMap((session) => (session.stateDir === null ? [] : [session.stateDir])),
  );
  if (reapedRunStateDirs.length > 0)
    logger.info('removed the state of runs a killed flotilla left behind', { dirs: reapedRunStateDirs });
  const worktrees = createRunWorktrees(options);
  const reapedAgentWorktrees = await worktrees.reapStaleWorktrees({
    keep: waiting.flatMap((session) => (session.worktree === null ? [] : [session.worktree.path])),
  });
  const reapedScratch = await reapLocalScratch({ repoRoot, scratchDir: paths.tmpDir, logger });
  // A spare a killed process prepared ahead was no run's: not reported as a leftover.
  const reapedWorktrees = [
    ...reapedAgentWorktrees.filter((path) => !isSpareWorktreePath(path)),
    ...reapedScratch.worktrees,
  ];
  return {
    recovered: {
      interruptedRuns: runs.interrupted.length,
      adoptedRuns: runs.adopted.length,
      reapedWorktrees,
      reapedProcesses,
    },
    adopted: runs.adopted,
    keep: runs.keep,
    worktrees,
  };
}

/**
 * One worktree manager for every runtime: git's worktree operations on a repository are serialised, and
 * the spare it prepares ahead serves whichever runtime starts next. Settled (spare removed) on close.
 */
function createRunWorktrees(options: CrashRecoveryOptions): WorktreeManager {
  return createCloneWorktrees(options, options.config.worktree.prepareAhead);
}
