import { runGit } from './run-command.ts';

export interface ExtractPatchParams {
  /** The implementor's worktree. Its index is rewritten (`git add -A`); the worktree is disposable. */
  worktreePath: string;
  /** The commit the worktree was created at (a SHA, not the default branch, which may have moved). */
  baseCommit: string;
  /** Default: 2 minutes per git command. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 2 * 60_000;
/** SHA-1 or SHA-256 object name. */
const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Every change in the worktree against the base commit, committed or not ("Patches are exact",
 * architecture.md): new, modified, deleted and renamed files, mode changes, symlinks and binary files.
 * Git's binary patch format is ASCII, so the patch is a string that `git apply` reproduces byte for byte.
 * Returns '' when nothing changed.
 */
export async function extractPatch({
  worktreePath,
  baseCommit,
  timeoutMs,
}: ExtractPatchParams): Promise<string> {
  if (!COMMIT_SHA.test(baseCommit)) {
    throw new Error(`extractPatch needs the base commit SHA, got "${baseCommit}"`);
  }
  const options = { cwd: worktreePath, timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS };
  // Stage everything — untracked files included, ignored files excluded — so one diff covers committed,
  // uncommitted and new work alike.
  await runGit(['add', '--all'], options);
  const { stdout } = await runGit(
    [
      // Pin what user or repository config could change about the output `git apply` reads.
      '-c',
      'diff.noprefix=false',
      '-c',
      'diff.mnemonicPrefix=false',
      '-c',
      'diff.relative=false',
      '-c',
      'core.quotePath=true',
      'diff',
      '--cached',
      '--binary',
      '--full-index',
      '--find-renames',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--src-prefix=a/',
      '--dst-prefix=b/',
      baseCommit,
      '--',
    ],
    options,
  );
  return stdout;
}
