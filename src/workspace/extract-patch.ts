import { isUtf8 } from 'node:buffer';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PINNED_DIFF_CONFIG, runGit } from '../process/run-command.ts';
import { buildLocalFilePathspecs } from './copy-local-files.ts';
import { findForbiddenChanges } from './find-forbidden-changes.ts';

export interface ExtractPatchParams {
  /** The implementor's worktree. Its index is rewritten (`git add -A`); the worktree is disposable. */
  worktreePath: string;
  /** The commit the worktree was created at (a SHA, not the default branch, which may have moved). */
  baseCommit: string;
  /** Repository-relative paths the patch may not touch (config `protectedPaths`), besides the built-in ones. */
  protectedPaths?: readonly string[];
  /**
   * `worktree.copy` patterns: the local files copied into the worktree (`.env`, local config). Never part
   * of the patch, whatever the agent did to them: they are left at the base commit's version (or out).
   */
  localFiles?: readonly string[];
  /** Default: 2 minutes per git command. */
  timeoutMs?: number;
}

/**
 * The patch touches what no agent may change (see find-forbidden-changes.ts). Its message names every path
 * and why; a runtime that lets it propagate fails the run with that reason.
 */
export class PatchRefusedError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(
      `the implementor's patch was refused: it touches paths agents may not change: ${problems.join('; ')}`,
    );
    this.name = 'PatchRefusedError';
    this.problems = problems;
  }
}

const DEFAULT_TIMEOUT_MS = 2 * 60_000;
/** SHA-1 or SHA-256 object name. */
const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Every change in the worktree against the base commit, committed or not ("Patches are exact",
 * docs/architecture.md): new, modified, deleted and renamed files, mode changes, symlinks and binary files.
 * Git's binary patch format is ASCII, so the patch is a string that `git apply` reproduces byte for byte.
 * Returns '' when nothing changed.
 *
 * Every runtime takes its patch here, so this is where patches are checked on the way out: one that touches
 * `.git` internals or another protected path (any case), a configured `protectedPaths` entry, adds a gitlink
 * or a symlink leading outside the worktree or into `.git` rejects with a PatchRefusedError naming each path.
 */
export async function extractPatch({
  worktreePath,
  baseCommit,
  protectedPaths,
  localFiles,
  timeoutMs,
}: ExtractPatchParams): Promise<string> {
  if (!COMMIT_SHA.test(baseCommit)) {
    throw new Error(`extractPatch needs the base commit SHA, got "${baseCommit}"`);
  }
  const options = { cwd: worktreePath, timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS };
  // Stage everything — untracked files included, ignored files excluded — so one diff covers committed,
  // uncommitted and new work alike.
  await runGit(['add', '--all'], options);
  // The local files go back to the base's index entries (absent there: out of the index), so no diff sees them.
  if (localFiles !== undefined && localFiles.length > 0)
    await runGit(['reset', '--quiet', baseCommit, '--', ...buildLocalFilePathspecs(localFiles)], options);
  const problems = await findForbiddenChanges({
    worktreePath,
    baseCommit,
    ...(protectedPaths !== undefined && { protectedPaths }),
    timeoutMs: options.timeoutMs,
  });
  if (problems.length > 0) throw new PatchRefusedError(problems);
  const diff = (extraConfig: string[]) => runGit([...extraConfig, ...buildDiffArgs(baseCommit)], options);
  const first = await diff([]);
  if (isUtf8(first.stdoutBytes)) return first.stdout;
  // A text file that is not UTF-8 (Latin-1, say) would be corrupted by decoding the patch as a string:
  // treat every file as binary instead, so git encodes the changes in its ASCII binary-patch format.
  const scratch = await mkdtemp(join(tmpdir(), 'flotilla-patch-'));
  try {
    const attributes = join(scratch, 'attributes');
    await writeFile(attributes, '* binary\n');
    const binary = await diff(['-c', `core.attributesFile=${attributes}`]);
    if (!isUtf8(binary.stdoutBytes))
      throw new Error('git produced a patch that is not ASCII even in binary mode');
    return binary.stdout;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The diff `git apply` reproduces exactly, with every setting that could change its output pinned. */
function buildDiffArgs(baseCommit: string): string[] {
  return [
    ...PINNED_DIFF_CONFIG,
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
  ];
}
