import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RevisionFile } from '../../domain/index.ts';
import { CommandError, runGit } from '../../process/run-command.ts';
import { messageOf } from '../../shared/message-of.ts';
import { buildBranchRef } from './build-branch-ref.ts';
import { listChangedFiles } from './list-changed-files.ts';
import { APPLY_SCRATCH_PREFIX, localScratchDir } from './local-scratch-dir.ts';
import { resolveCommit } from './resolve-commit.ts';

export interface GitIdentity {
  name: string;
  email: string;
}

export interface CreateBranchFromPatchParams {
  repoRoot: string;
  /** The branch the patch was made against; the new commit's parent is its current head. */
  defaultBranch: string;
  /** Created, or moved if it exists (a re-push of a revision): it always ends up one commit above base. */
  branchName: string;
  /**
   * A `git diff --binary --full-index` patch, as extractPatch produces it. A Buffer is applied byte for
   * byte; a string is written as UTF-8 (exact unless a text file in the diff is not valid UTF-8).
   */
  patch: string | Buffer;
  commitMessage: string;
  author: GitIdentity;
  /** Default: the author. */
  committer?: GitIdentity;
  /**
   * The commit the patch was made against (issue #30). When the default branch does not contain it — stacked
   * work, on top of revisions not merged yet — the commit goes on it instead of the default branch's head,
   * so the patch applies as it was made and the revision holds only its own work. Absent, contained in the
   * default branch, or unknown here: the default branch's head.
   */
  base?: string;
  /** Default: 2 minutes per git command. */
  timeoutMs?: number;
}

export interface BranchFromPatch {
  headSHA: string;
  baseSHA: string;
  files: RevisionFile[];
}

/** The patch does not apply to the base; `files` are the paths git complained about (may be empty). */
export class PatchApplyError extends Error {
  readonly files: string[];
  readonly gitOutput: string;

  constructor(message: string, fields: { files: string[]; gitOutput: string; cause?: unknown }) {
    super(message, { cause: fields.cause });
    this.name = 'PatchApplyError';
    this.files = fields.files;
    this.gitOutput = fields.gitOutput;
  }
}

const DEFAULT_TIMEOUT_MS = 2 * 60_000;

/**
 * The trailer a stacked revision's commit carries (issue #30): the commit it was made on, which the default
 * branch did not contain. A merge refuses it until the default branch holds that work (integrate-revision.ts).
 */
export const STACK_BASE_TRAILER = 'Flotilla-Builds-On';

/**
 * Commits the patch on top of the default branch's head and points `branchName` at that commit, with git
 * plumbing only (docs/architecture.md §Patches are exact): a temporary index file, `read-tree`, `apply
 * --cached`, `write-tree`, `commit-tree`, `update-ref`. Nothing is checked out; the user's working tree,
 * index and HEAD are never touched. `git apply` reproduces binary files, renames, deletions, modes and
 * symlinks byte for byte (unlike rebuilding files from hunks, docs/reference-behaviour.md §7).
 *
 * All or nothing: when the patch does not apply (PatchApplyError) or any step fails, no ref is created or
 * moved; objects written before the failure stay unreferenced and are left to `git gc`.
 */
export async function createBranchFromPatch(params: CreateBranchFromPatchParams): Promise<BranchFromPatch> {
  const { repoRoot, defaultBranch, branchName, patch } = params;
  const timeoutMs = params.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const git = (args: string[], extra: { env?: Record<string, string>; input?: string } = {}) =>
    runGit(args, { cwd: repoRoot, timeoutMs, ...extra });

  if (patch.toString('utf8').trim() === '') {
    throw new Error(`The patch for branch ${branchName} is empty: there is nothing to commit`);
  }
  const branchRef = buildBranchRef(branchName);
  const defaultRef = buildBranchRef(defaultBranch);
  await assertValidBranchRef(repoRoot, branchRef, branchName);
  if (branchRef === defaultRef) {
    throw new Error(`Refusing to write a revision onto the default branch ${defaultBranch}`);
  }
  const tipSHA = await resolveCommit(repoRoot, defaultRef, { timeoutMs }).catch((error: unknown) => {
    throw new Error(`Default branch ${defaultBranch} not found in ${repoRoot}`, { cause: error });
  });
  const stackedOn = await findStackBase(repoRoot, params.base, tipSHA, timeoutMs);
  const baseSHA = stackedOn ?? tipSHA;
  const baseName = stackedOn === null ? defaultBranch : 'the revisions it builds on';
  const previousSHA = await currentRefValue(repoRoot, branchRef, timeoutMs);
  // git refuses to move a branch that a working tree has checked out (it would look changed underneath
  // the user); update-ref does not check, so we do.
  const checkedOutAt = await worktreeWithBranch(repoRoot, branchRef, timeoutMs);
  if (checkedOutAt !== null) {
    throw new Error(`Branch ${branchName} is checked out at ${checkedOutAt}; refusing to move it`);
  }

  // In the repository's `.flotilla/tmp/`, not the shared temp dir: a kill leaves it where the next start reaps it.
  const scratchParent = localScratchDir(repoRoot);
  await mkdir(scratchParent, { recursive: true });
  const scratch = await mkdtemp(join(scratchParent, APPLY_SCRATCH_PREFIX));
  try {
    const indexEnv = { GIT_INDEX_FILE: join(scratch, 'index') };
    const patchFile = join(scratch, 'revision.patch');
    await writeFile(patchFile, patch);
    await git(['read-tree', baseSHA], { env: indexEnv });
    await applyPatch(git, patchFile, indexEnv, { branchName, defaultBranch: baseName, baseSHA });
    const tree = (await git(['write-tree'], { env: indexEnv })).stdout.trim();
    const baseTree = (await git(['rev-parse', `${baseSHA}^{tree}`])).stdout.trim();
    if (tree === baseTree) {
      throw new PatchApplyError(
        `The patch for branch ${branchName} changes nothing on ${baseName} (${baseSHA.slice(0, 12)})`,
        { files: [], gitOutput: '' },
      );
    }

    const committer = params.committer ?? params.author;
    const identityEnv = {
      GIT_AUTHOR_NAME: params.author.name,
      GIT_AUTHOR_EMAIL: params.author.email,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
    };
    // No signing: a gpg prompt would hang an unattended run, and the commit is the agent's, not the user's.
    const headSHA = (
      await git(['commit-tree', '--no-gpg-sign', tree, '-p', baseSHA, '-F', '-'], {
        env: identityEnv,
        input:
          stackedOn === null
            ? params.commitMessage
            : `${params.commitMessage.trimEnd()}\n\n${STACK_BASE_TRAILER}: ${stackedOn}\n`,
      })
    ).stdout.trim();

    // Compare-and-swap: fails instead of overwriting if the branch moved (or appeared) since we looked.
    await git([
      'update-ref',
      '-m',
      `flotilla: revision from patch on ${stackedOn === null ? defaultBranch : stackedOn}`,
      branchRef,
      headSHA,
      previousSHA ?? '',
    ]).catch((error: unknown) => {
      throw new Error(`Could not point ${branchName} at ${headSHA}: ${messageOf(error)}`, { cause: error });
    });

    const files = await listChangedFiles(repoRoot, baseSHA, headSHA, { timeoutMs });
    return { headSHA, baseSHA, files };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * `base` when it is a commit here that the default branch's tip does not contain (stacked work), else null.
 */
async function findStackBase(
  repoRoot: string,
  base: string | undefined,
  tipSHA: string,
  timeoutMs: number,
): Promise<string | null> {
  if (base === undefined || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(base) || base === tipSHA) return null;
  const known = await runGit(['cat-file', '-e', `${base}^{commit}`], {
    cwd: repoRoot,
    timeoutMs,
    okExitCodes: [0, 1, 128],
  });
  if (known.exitCode !== 0) return null;
  const contained = await runGit(['merge-base', '--is-ancestor', base, tipSHA], {
    cwd: repoRoot,
    timeoutMs,
    okExitCodes: [0, 1],
  });
  return contained.exitCode === 0 ? null : base;
}

async function applyPatch(
  git: (args: string[], extra: { env?: Record<string, string> }) => Promise<unknown>,
  patchFile: string,
  env: Record<string, string>,
  context: { branchName: string; defaultBranch: string; baseSHA: string },
): Promise<void> {
  try {
    await git(
      [
        // User config must not reject or alter an exact patch (e.g. apply.whitespace=error/fix).
        '-c',
        'apply.whitespace=nowarn',
        '-c',
        'apply.ignoreWhitespace=no',
        'apply',
        '--cached',
        '--binary',
        '--whitespace=nowarn',
        patchFile,
      ],
      { env },
    );
  } catch (error) {
    if (!(error instanceof CommandError) || error.exitCode === null) throw error;
    const files = filesGitComplainedAbout(error.stderr);
    const where = `${context.defaultBranch} (${context.baseSHA.slice(0, 12)})`;
    const what = files.length > 0 ? `: ${files.join(', ')}` : '';
    throw new PatchApplyError(
      `The patch for branch ${context.branchName} does not apply to ${where}${what}\n${error.stderr.trim()}`,
      { files, gitOutput: error.stderr, cause: error },
    );
  }
}

/** git apply's per-file complaints (git 2.x wording). */
const COMPLAINTS: readonly RegExp[] = [
  /^error: patch failed: (.+):\d+$/,
  /^error: (.+): (?:patch does not apply|does not exist in index|already exists in index|wrong type|does not match index)$/,
  /^error: (?:binary patch does not apply to|cannot apply binary patch to|the patch applies to) '(.+?)'/,
  /^error: affected file '(.+)' is beyond a symbolic link$/,
];

function filesGitComplainedAbout(stderr: string): string[] {
  const files = new Set<string>();
  for (const line of stderr.split('\n')) {
    for (const pattern of COMPLAINTS) {
      const path = pattern.exec(line.trimEnd())?.[1];
      if (path !== undefined) {
        files.add(path);
        break;
      }
    }
  }
  return [...files];
}

async function assertValidBranchRef(repoRoot: string, branchRef: string, branchName: string): Promise<void> {
  const { exitCode } = await runGit(['check-ref-format', branchRef], { cwd: repoRoot, okExitCodes: [0, 1] });
  if (exitCode !== 0 || !branchRef.startsWith('refs/heads/')) {
    throw new Error(`Invalid branch name for a revision: "${branchName}"`);
  }
}

async function currentRefValue(repoRoot: string, ref: string, timeoutMs: number): Promise<string | null> {
  const { exitCode, stdout } = await runGit(['rev-parse', '--verify', '--quiet', ref], {
    cwd: repoRoot,
    timeoutMs,
    okExitCodes: [0, 1],
  });
  return exitCode === 0 ? stdout.trim() : null;
}

async function worktreeWithBranch(repoRoot: string, ref: string, timeoutMs: number): Promise<string | null> {
  const { stdout } = await runGit(['worktree', 'list', '--porcelain', '-z'], { cwd: repoRoot, timeoutMs });
  let path: string | null = null;
  for (const field of stdout.split('\0')) {
    if (field.startsWith('worktree ')) path = field.slice('worktree '.length);
    if (field === `branch ${ref}`) return path;
  }
  return null;
}
