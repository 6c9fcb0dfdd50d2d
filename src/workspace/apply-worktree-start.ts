import { CommandError, runGit } from '../process/run-command.ts';
import { messageOf } from '../shared/message-of.ts';
import type { WorktreeStart } from './worktree-manager-types.ts';

export interface ApplyWorktreeStartParams {
  /** The new worktree: checked out (on `branchName`) at the default branch's tip, nothing of a run in it. */
  path: string;
  branchName: string;
  /** The default branch's tip the worktree is at now. */
  tip: string;
  start: WorktreeStart;
  timeoutMs: number;
}

export interface AppliedWorktreeStart {
  /** What patches are taken against: the merged `onto` commits, or the tip. */
  baseCommit: string;
  /** The base is not the default branch's tip (some `onto` commit was used). */
  stacked: boolean;
  /** For the run's transcript. */
  notes: string[];
}

/**
 * Commits made here (a merge of several blockers, a rebased rework) are scratch: a fixed identity, never
 * signed (a gpg prompt would hang an unattended run), hooks off.
 */
const SCRATCH_COMMIT_CONFIG = [
  '-c',
  'user.name=Flotilla',
  '-c',
  'user.email=flotilla@localhost',
  '-c',
  'commit.gpgSign=false',
  '-c',
  'core.hooksPath=/dev/null',
];

/**
 * Moves a fresh worktree to where its run starts (issue #30): onto its blockers' approved revisions
 * (one checked out, several merged), then, for a rework, the previous revision rebased on top — a failed
 * rebase is aborted and the work starts fresh, said in `notes`. Last, untracked files are cleaned, so the
 * caller copies the local files into a clean tree. Rejects when the `onto` commits do not merge together.
 */
export async function applyWorktreeStart(params: ApplyWorktreeStartParams): Promise<AppliedWorktreeStart> {
  const { path, branchName, tip, start, timeoutMs } = params;
  const git = (args: string[]) => runGit(args, { cwd: path, timeoutMs });
  const notes: string[] = [];
  const onto: string[] = [];
  for (const commit of start.onto ?? []) {
    if (await hasCommit(git, commit)) onto.push(commit);
    else
      notes.push(
        `could not build on ${commit}: this repository does not have that commit; started without it`,
      );
  }
  let baseCommit = tip;
  const [first, ...others] = onto;
  if (first !== undefined) {
    await git(['checkout', '--quiet', '--force', '-B', branchName, first]);
    for (const other of others) {
      try {
        await git([
          ...SCRATCH_COMMIT_CONFIG,
          'merge',
          '--quiet',
          '--no-edit',
          '--no-ff',
          '-m',
          `flotilla: build on ${other}`,
          other,
        ]);
      } catch (error) {
        await git(['merge', '--abort']).catch(() => {});
        throw new Error(
          `the revisions this work builds on do not merge together (${onto.join(', ')}): ${conflictOf(error)}`,
          { cause: error },
        );
      }
    }
    baseCommit = (await git(['rev-parse', 'HEAD'])).stdout.trim();
  }
  if (start.rebase !== undefined) {
    const rebased = await rebaseOnto(git, { branchName, head: start.rebase, baseCommit });
    if (rebased !== null) notes.push(rebased);
  }
  await git(['clean', '-fdq']);
  return { baseCommit, stacked: baseCommit !== tip, notes };
}

/**
 * The previous revision's head, rebased onto the base: its commits the base lacks are replayed (commits it
 * already has drop out). Returns a note when it could not be done (the worktree is then back at the base),
 * else null.
 */
async function rebaseOnto(
  git: (args: string[]) => ReturnType<typeof runGit>,
  { branchName, head, baseCommit }: { branchName: string; head: string; baseCommit: string },
): Promise<string | null> {
  const fresh = async (reason: string) => {
    await git(['rebase', '--abort']).catch(() => {});
    await git(['checkout', '--quiet', '--force', '-B', branchName, baseCommit]);
    return `the previous revision (${head.slice(0, 12)}) could not be rebased onto ${baseCommit.slice(0, 12)}: ${reason}; the rework starts fresh from there`;
  };
  if (!(await hasCommit(git, head))) return fresh('this repository does not have that commit');
  try {
    await git(['checkout', '--quiet', '--force', '-B', branchName, head]);
    await git([...SCRATCH_COMMIT_CONFIG, 'rebase', '--quiet', '--no-autosquash', baseCommit]);
  } catch (error) {
    return fresh(conflictOf(error));
  }
  return null;
}

async function hasCommit(
  git: (args: string[]) => ReturnType<typeof runGit>,
  commit: string,
): Promise<boolean> {
  if (commit.startsWith('-')) return false;
  try {
    await git(['cat-file', '-e', `${commit}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** git's own account of a failed merge or rebase: the lines naming conflicts, else its message. */
function conflictOf(error: unknown): string {
  if (!(error instanceof CommandError)) return messageOf(error);
  const output = `${error.stdout}\n${error.stderr}`;
  const conflicts = output
    .split('\n')
    .filter((line) => line.startsWith('CONFLICT'))
    .map((line) => line.trim());
  if (conflicts.length > 0) return conflicts.join('; ');
  return output.trim().split('\n').slice(-3).join(' ') || messageOf(error);
}
