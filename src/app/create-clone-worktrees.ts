import { join } from 'node:path';
import type { FlotillaConfig, FlotillaPaths } from '../config/index.ts';
import type { Logger } from '../logging/logger.ts';
import { createPortAllocator } from '../workspace/create-port-allocator.ts';
import { createWorktreeManager } from '../workspace/create-worktree-manager.ts';
import type { WorktreeManager } from '../workspace/worktree-manager-types.ts';

/**
 * The worktree manager of a clone, as the configuration says (`worktree.*`). `prepareAhead`: whether spares
 * are prepared ahead and removals run behind — the control plane's choice (`worktree.prepareAhead`); a
 * worker's slots share their clone, so none prepares a spare the others could race for.
 */
export function createCloneWorktrees(
  options: { repoRoot: string; config: FlotillaConfig; logger: Logger; paths: FlotillaPaths },
  prepareAhead: boolean,
): WorktreeManager {
  const { repoRoot, config, logger, paths } = options;
  return createWorktreeManager({
    repoRoot,
    defaultBranch: config.defaultBranch,
    setupCommand: config.worktree.setupCommand,
    logger,
    prepareAhead,
    removeBehind: prepareAhead,
    copy: config.worktree.copy,
    teardownCommand: config.worktree.teardownCommand,
    // Recorded under .flotilla/ports/, so a restart never hands out a port a kept worktree still has.
    ports: createPortAllocator({ dir: join(paths.stateDir, 'ports'), count: config.worktree.ports }),
  });
}
