import type { Logger } from '../../logging/logger.ts';
import { createWorktreeManager, type WorktreeManager } from '../../workspace/create-worktree-manager.ts';

export interface RuntimeWorktreesConfig {
  repoRoot: string;
  defaultBranch: string;
  setupCommand?: string | null;
  /** The repository's shared manager (the control plane's), when given. */
  worktrees?: WorktreeManager;
  logger: Logger;
}

/**
 * The worktree manager a runtime uses: the shared one it was given, or one of its own with the defaults (no
 * spare ahead, removal on the run's path) for a runtime used alone.
 */
export function createRuntimeWorktrees(config: RuntimeWorktreesConfig): WorktreeManager {
  return (
    config.worktrees ??
    createWorktreeManager({
      repoRoot: config.repoRoot,
      defaultBranch: config.defaultBranch,
      setupCommand: config.setupCommand,
      logger: config.logger,
    })
  );
}
