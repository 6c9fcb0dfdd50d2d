import { resolveFlotillaPaths } from '../../shared/resolve-flotilla-paths.ts';

/** Name prefix of a checks worktree under the scratch dir (`runLocalChecks`). */
export const CHECKS_WORKTREE_PREFIX = 'checks-';
/** Name prefix of a patch-application scratch dir (index + patch file) under the scratch dir. */
export const APPLY_SCRATCH_PREFIX = 'apply-';

/**
 * Where the local provider's git plumbing puts what it creates and removes again: `.flotilla/tmp/` in the
 * repository, not the shared OS temp dir. Inside the repository's own state dir, what is left there after a
 * kill is provably Flotilla's, so the next start reaps it (`reapLocalScratch`).
 */
export function localScratchDir(repoRoot: string): string {
  return resolveFlotillaPaths(repoRoot).tmpDir;
}
