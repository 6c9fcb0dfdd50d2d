import { readdir, realpath, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { Logger } from '../../../logging/logger.ts';
import { runCommand, runGit } from '../../../process/run-command.ts';
import {
  APPLY_SCRATCH_PREFIX,
  CHECKS_WORKTREE_PREFIX,
  localScratchDir,
} from '../../shared/local-scratch-dir.ts';

export interface ReapLocalScratchParams {
  repoRoot: string;
  logger: Logger;
  /** Default: `localScratchDir(repoRoot)`, where the local provider puts them. */
  scratchDir?: string;
}

export interface ReapedLocalScratch {
  /** Checks worktrees removed (registered with git, or their directory left on disk). */
  worktrees: string[];
  /** Patch-application scratch dirs removed. */
  scratchDirs: string[];
}

const GIT_TIMEOUT_MS = 2 * 60_000;

/**
 * Crash recovery for the local provider's git plumbing: removes the checks worktrees (`checks-*`) and
 * patch-application scratch dirs (`apply-*`) a killed run left in the scratch dir, drops git's records of
 * them, and runs `git worktree prune`. Nothing else is touched: other worktrees of the repository, and
 * anything in the scratch dir with another name, are left alone. Call only while nothing can be using them,
 * i.e. after the control plane's run lock is taken and before checks or revisions start.
 */
export async function reapLocalScratch(params: ReapLocalScratchParams): Promise<ReapedLocalScratch> {
  const { repoRoot, logger } = params;
  const git = (args: string[]) => runGit(args, { cwd: repoRoot, timeoutMs: GIT_TIMEOUT_MS });
  const scratchDir = await canonical(params.scratchDir ?? localScratchDir(repoRoot));
  const ours = (path: string, prefix: string) =>
    path.startsWith(scratchDir + sep) &&
    !path.slice(scratchDir.length + 1).includes(sep) &&
    path.slice(scratchDir.length + 1).startsWith(prefix);

  const worktrees = new Set<string>();
  // Registered first: a worktree killed during `git worktree add` is locked ("initializing"), which plain
  // `remove` and `prune` both skip; `remove --force --force` takes it, and its admin dir, away.
  for (const listed of await listWorktreePaths(repoRoot)) {
    const path = await canonical(listed);
    if (!ours(path, CHECKS_WORKTREE_PREFIX)) continue;
    logger.info('Reaping a checks worktree a killed run left behind', { path });
    try {
      await git(['worktree', 'remove', '--force', '--force', listed]);
    } catch {
      // Its directory is gone or damaged: unlock the record so prune drops it; the directory goes below.
      await git(['worktree', 'unlock', listed]).catch(() => {});
    }
    worktrees.add(path);
  }

  const scratchDirs: string[] = [];
  for (const name of await readdir(scratchDir).catch(() => [] as string[])) {
    const path = join(scratchDir, name);
    const isWorktree = ours(path, CHECKS_WORKTREE_PREFIX);
    if (!isWorktree && !ours(path, APPLY_SCRATCH_PREFIX)) continue;
    logger.info('Reaping a directory a killed run left behind', { path });
    await removeDirectory(repoRoot, path);
    if (isWorktree) worktrees.add(path);
    else scratchDirs.push(path);
  }
  await git(['worktree', 'prune']);
  return { worktrees: [...worktrees], scratchDirs };
}

async function listWorktreePaths(repoRoot: string): Promise<string[]> {
  const { stdout } = await runGit(['worktree', 'list', '--porcelain', '-z'], {
    cwd: repoRoot,
    timeoutMs: GIT_TIMEOUT_MS,
  });
  return stdout
    .split('\0')
    .filter((field) => field.startsWith('worktree '))
    .map((field) => field.slice('worktree '.length));
}

/** Git prints resolved paths; compare real paths so a symlinked repository root still matches. */
async function canonical(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    // Gone already: resolve the part that still exists (the repository root does).
    const absolute = resolve(path);
    const parent = dirname(absolute);
    return parent === absolute ? absolute : join(await canonical(parent), basename(absolute));
  }
}

async function removeDirectory(repoRoot: string, path: string): Promise<void> {
  const remove = () => rm(path, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  await remove().catch(async () => {
    // The checks command may have made its files read-only.
    await runCommand('chmod', ['-R', 'u+w', path], { cwd: repoRoot, okExitCodes: [0, 1] }).catch(() => {});
    await remove();
  });
}
