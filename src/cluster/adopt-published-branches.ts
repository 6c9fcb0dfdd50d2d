import { runGit } from '../process/run-command.ts';

/** Where controllers publish their default branch and revision branches (create-cluster-git.ts). */
export const CLUSTER_REFS = 'refs/flotilla/cluster';
const GIT_TIMEOUT_MS = 120_000;

/** What happened to one local branch. */
export type AdoptedBranch =
  | { branch: string; outcome: 'created' | 'advanced' }
  /** Not moved: it holds commits the published head lacks (or its checkout has changes); said in the log. */
  | { branch: string; outcome: 'kept'; reason: string };

export interface AdoptPublishedOptions {
  repoRoot: string;
  remote: string;
  defaultBranch: string;
}

/**
 * A controller taking over in its own clone (issue #33): fetches what the previous leader published
 * (`refs/flotilla/cluster/heads/*` on the shared remote) and brings this clone's default branch and
 * `flotilla/*` revision branches forward to it, so the revisions in the shared tracker are reviewable and
 * mergeable here and this leader's next publish does not rewind the remote. Only fast-forwards: a branch
 * with commits the published one lacks is kept (reported). A checked-out default branch is advanced with
 * `git merge --ff-only` only when it has no changes to tracked files. Returns only the branches it touched
 * or kept; a remote without the namespace (a first start) changes nothing.
 */
export async function adoptPublishedBranches(options: AdoptPublishedOptions): Promise<AdoptedBranch[]> {
  const git = (args: string[], okExitCodes = [0], cwd = options.repoRoot) =>
    runGit(args, { cwd, okExitCodes, timeoutMs: GIT_TIMEOUT_MS });
  await git(['fetch', '--quiet', '--force', options.remote, `+${CLUSTER_REFS}/*:${CLUSTER_REFS}/*`]);
  const listed = await git([
    'for-each-ref',
    '--format=%(refname) %(objectname)',
    `${CLUSTER_REFS}/heads/${options.defaultBranch}`,
    `${CLUSTER_REFS}/heads/flotilla/`,
  ]);
  const adopted: AdoptedBranch[] = [];
  for (const line of listed.stdout.split('\n').filter((entry) => entry !== '')) {
    const [ref = '', published = ''] = line.split(' ');
    const branch = ref.slice(`${CLUSTER_REFS}/heads/`.length);
    const result = await adoptBranch(git, branch, published);
    if (result !== null) adopted.push(result);
  }
  return adopted;
}

type Git = (args: string[], okExitCodes?: number[], cwd?: string) => ReturnType<typeof runGit>;

async function adoptBranch(git: Git, branch: string, published: string): Promise<AdoptedBranch | null> {
  const ref = `refs/heads/${branch}`;
  const local = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], [0, 1]);
  if (local.exitCode !== 0) {
    // Created only if still absent (the zero old value): nothing else writes it meanwhile.
    await git(['update-ref', ref, published, '0'.repeat(40)]);
    return { branch, outcome: 'created' };
  }
  const current = local.stdout.trim();
  if (current === published) return null;
  const behind = await git(['merge-base', '--is-ancestor', current, published], [0, 1]);
  if (behind.exitCode !== 0) {
    const ahead = await git(['merge-base', '--is-ancestor', published, current], [0, 1]);
    // Ahead of what was published: this clone's own newer work, published at its next run.
    if (ahead.exitCode === 0) return null;
    return {
      branch,
      outcome: 'kept',
      reason: `it has diverged from the published ${published.slice(0, 12)}`,
    };
  }
  const worktree = await checkedOutIn(git, ref);
  if (worktree === null) {
    await git(['update-ref', ref, published, current]);
    return { branch, outcome: 'advanced' };
  }
  const status = await git(['status', '--porcelain', '--untracked-files=no'], [0], worktree);
  if (status.stdout.trim() !== '') {
    return { branch, outcome: 'kept', reason: `it is checked out in ${worktree} with uncommitted changes` };
  }
  const advanced = await git(['merge', '--ff-only', '--quiet', published], [0, 1, 128], worktree);
  if (advanced.exitCode !== 0) {
    return { branch, outcome: 'kept', reason: `git merge --ff-only refused: ${advanced.stderr.trim()}` };
  }
  return { branch, outcome: 'advanced' };
}

/** The worktree that has `ref` checked out, or null. */
async function checkedOutIn(git: Git, ref: string): Promise<string | null> {
  const listed = await git(['worktree', 'list', '--porcelain']);
  let path: string | null = null;
  for (const line of listed.stdout.split('\n')) {
    if (line.startsWith('worktree ')) path = line.slice('worktree '.length);
    if (line === `branch ${ref}`) return path;
  }
  return null;
}
