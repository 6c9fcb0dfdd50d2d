import type { MergeConflictFile } from '../../../domain/index.ts';
import { PINNED_DIFF_CONFIG, runGit } from '../../../process/run-command.ts';
import { type GitIdentity, STACK_BASE_TRAILER } from '../../shared/create-branch-from-patch.ts';
import { readConflictHunks } from '../../shared/read-conflict-hunks.ts';

export interface RebaseRevisionParams {
  repoRoot: string;
  defaultBranch: string;
  /** The revision branch, e.g. `flotilla/12`. */
  branchName: string;
  /** Where the tracker says the branch is; a branch elsewhere is refused. */
  headSHA: string;
  /** The committer of the replayed commit (its author is kept). */
  committer: GitIdentity;
}

export type RebaseRevisionResult =
  | { outcome: 'up-to-date'; baseSHA: string }
  | { outcome: 'rebased'; baseSHA: string; headSHA: string; patch: string; changedApproved: boolean }
  | { outcome: 'conflict'; baseSHA: string; files: MergeConflictFile[] };

const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--full-index'];

/**
 * The merge queue's rebase (issue #30 §5) for a local revision: its change — the head commit against its
 * parent (revision commits have one parent: what the patch was made against, the default branch or the
 * blockers' revisions it was stacked on) — replayed onto the default branch's head, as `git cherry-pick`
 * would, without any checkout: `git merge-tree --write-tree` merges two scratch commits that share the
 * head's parent as their merge base (git 2.39 has no `--merge-base`), one with the default branch's tree,
 * one with the head's. Clean: a new commit on the default branch (the head's author and message, without
 * its `Flotilla-Builds-On` trailers: it is on the default branch now), and the branch moves to it by
 * compare-and-swap. `changedApproved` compares the two changes' `git patch-id --stable` (line numbers and
 * whitespace ignored): a shifted change keeps its approval. A conflict writes nothing and returns each
 * file's conflicting hunks as git marked them.
 */
export async function rebaseRevision(params: RebaseRevisionParams): Promise<RebaseRevisionResult> {
  const { repoRoot, defaultBranch, branchName, headSHA } = params;
  const git = (args: string[], okExitCodes: number[] = [0], env?: Record<string, string>, input?: string) =>
    runGit(args, { cwd: repoRoot, okExitCodes, env, input });
  const base = await git(
    ['rev-parse', '--verify', '--quiet', `refs/heads/${defaultBranch}^{commit}`],
    [0, 1],
  );
  if (base.exitCode !== 0) {
    throw new Error(
      `the default branch ${defaultBranch} does not exist; set defaultBranch in flotilla.config.json`,
    );
  }
  const baseSHA = base.stdout.trim();
  const branch = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branchName}^{commit}`], [0, 1]);
  if (branch.exitCode !== 0)
    throw new Error(`the revision branch ${branchName} is gone; nothing was rebased`);
  if (branch.stdout.trim() !== headSHA) {
    throw new Error(
      `${branchName} is at ${branch.stdout.trim().slice(0, 12)}, not at the revision's head ${headSHA.slice(0, 12)}; nothing was rebased`,
    );
  }
  if ((await git(['merge-base', '--is-ancestor', baseSHA, headSHA], [0, 1])).exitCode === 0) {
    return { outcome: 'up-to-date', baseSHA };
  }
  const parent = (await git(['rev-parse', `${headSHA}^1`])).stdout.trim();
  const treeOf = async (commit: string) => (await git(['rev-parse', `${commit}^{tree}`])).stdout.trim();
  const scratch = async (scratchTree: string, scratchMessage: string) =>
    (
      await git(
        ['commit-tree', scratchTree, '-p', parent, '-m', scratchMessage],
        [0],
        identityEnv(params.committer),
      )
    ).stdout.trim();
  const ours = await scratch(await treeOf(baseSHA), 'flotilla merge queue: default branch');
  const theirs = await scratch(await treeOf(headSHA), 'flotilla merge queue: revision');
  const merged = await git(['merge-tree', '--write-tree', '--no-messages', ours, theirs], [0, 1]);
  const [tree = '', ...info] = merged.stdout.split('\n');
  if (merged.exitCode !== 0) {
    const paths = [...new Set(info.filter((line) => line !== '').map((line) => line.split('\t')[1] ?? ''))];
    const labels = { [ours]: defaultBranch, [theirs]: branchName };
    const files = await Promise.all(
      paths
        .filter((path) => path !== '')
        .map(async (path) => ({ path, hunks: await readConflictHunks(git, tree.trim(), path, labels) })),
    );
    return { outcome: 'conflict', baseSHA, files };
  }
  const original = await git(['show', '-s', '--format=%an%x00%ae%x00%aI%x00%B', headSHA]);
  const [name = '', email = '', date = '', ...body] = original.stdout.split('\0');
  const message = withoutStackTrailers(body.join('\0'));
  const rebased = (
    await git(['commit-tree', tree.trim(), '-p', baseSHA, '-m', message], [0], {
      ...identityEnv(params.committer),
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_AUTHOR_DATE: date,
    })
  ).stdout.trim();
  const patchOf = async (from: string, to: string) =>
    (await git([...PINNED_DIFF_CONFIG, 'diff', ...DIFF_FLAGS, from, to, '--'])).stdout;
  const [before, after] = await Promise.all([patchOf(parent, headSHA), patchOf(baseSHA, rebased)]);
  const patchID = async (patch: string) =>
    (await git(['patch-id', '--stable'], [0], undefined, patch)).stdout.trim().split(' ')[0] ?? '';
  const changedApproved = (await patchID(before)) !== (await patchID(after));
  // Compare-and-swap: refused (nothing written) if the branch moved since it was read.
  await git([
    'update-ref',
    '-m',
    'flotilla merge queue: rebase',
    `refs/heads/${branchName}`,
    rebased,
    headSHA,
  ]);
  return { outcome: 'rebased', baseSHA, headSHA: rebased, patch: after, changedApproved };
}

function withoutStackTrailers(message: string): string {
  const kept = message
    .split('\n')
    .filter((line) => !line.startsWith(`${STACK_BASE_TRAILER}: `))
    .join('\n');
  return `${kept.trimEnd()}\n`;
}

function identityEnv({ name, email }: GitIdentity): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
  };
}
