import { type CommandResult, runGit } from '../process/run-command.ts';
import { CLUSTER_REFS } from './adopt-published-branches.ts';

/** Where the controller publishes the commits runs start from, on the shared remote (never a human's branch). */
const NAMESPACE = CLUSTER_REFS;
const GIT_TIMEOUT_MS = 120_000;

export interface ClusterGitOptions {
  repoRoot: string;
  /** The git remote the machines share (`cluster.remote`; on the local provider, a shared bare repository). */
  remote: string;
  defaultBranch: string;
}

export interface ClusterGit {
  /**
   * Controller: pushes its default branch and its revision branches (`flotilla/*`) under
   * `refs/flotilla/cluster/` on the remote, and returns the default branch's commit: what a run starts from.
   */
  publish(): Promise<string>;
  /**
   * Worker: fetches that namespace and points its own default branch at `baseCommit`, so the runtime's
   * worktree starts where the controller's would have (and stacked starts find the blockers' heads).
   */
  receive(baseCommit: string): Promise<void>;
}

/**
 * How the machines of a cluster share commits (issue #33): through the repository's remote, in a namespace
 * of Flotilla's own. Pushes are serialised: one at a time per controller.
 */
export function createClusterGit(options: ClusterGitOptions): ClusterGit {
  const { repoRoot, remote, defaultBranch } = options;
  const git = (args: string[]) => runGit(args, { cwd: repoRoot, timeoutMs: GIT_TIMEOUT_MS });
  let pushing: Promise<unknown> = Promise.resolve();
  return {
    publish() {
      const pushed = pushing.then(async () => {
        await followSharedDefaultBranch(options);
        const base = (
          await git(['rev-parse', '--verify', `refs/heads/${defaultBranch}^{commit}`])
        ).stdout.trim();
        await git([
          'push',
          '--force',
          '--quiet',
          remote,
          `${base}:${NAMESPACE}/heads/${defaultBranch}`,
          `refs/heads/flotilla/*:${NAMESPACE}/heads/flotilla/*`,
        ]);
        return base;
      });
      pushing = pushed.catch(() => undefined);
      return pushed;
    },
    async receive(baseCommit) {
      if (!/^[0-9a-f]{40}$/.test(baseCommit)) throw new Error(`not a commit id: '${baseCommit}'`);
      await git(['fetch', '--quiet', '--force', remote, `+${NAMESPACE}/*:${NAMESPACE}/*`]);
      await git(['update-ref', `refs/heads/${defaultBranch}`, baseCommit]);
    },
  };
}

type Git = (args: string[], okExitCodes?: number[], cwd?: string) => Promise<CommandResult>;

/**
 * Before a publish: another machine's merge is on the shared remote's default branch (src/providers/local/
 * README.md "Cluster mode"), so this clone's default branch is fast-forwarded to it first and the next runs
 * start from the merged work. Only a fast-forward: a branch with commits of its own, a checkout whose files
 * would be overwritten, or a remote that cannot be read leaves the branch as it is (the publish goes on from it).
 */
async function followSharedDefaultBranch({
  repoRoot,
  remote,
  defaultBranch,
}: ClusterGitOptions): Promise<void> {
  const git: Git = (args, okExitCodes = [0], cwd = repoRoot) =>
    runGit(args, { cwd, okExitCodes, timeoutMs: GIT_TIMEOUT_MS });
  const tracking = `refs/remotes/${remote}/${defaultBranch}`;
  const fetched = await git(
    ['fetch', '--quiet', '--no-tags', remote, `+refs/heads/${defaultBranch}:${tracking}`],
    [0, 1, 128],
  );
  if (fetched.exitCode !== 0) return;
  const local = await git(
    ['rev-parse', '--verify', '--quiet', `refs/heads/${defaultBranch}^{commit}`],
    [0, 1],
  );
  const shared = await git(['rev-parse', '--verify', '--quiet', `${tracking}^{commit}`], [0, 1]);
  if (local.exitCode !== 0 || shared.exitCode !== 0) return;
  const [from, to] = [local.stdout.trim(), shared.stdout.trim()];
  if (from === to) return;
  const behind = await git(['merge-base', '--is-ancestor', from, to], [0, 1]);
  if (behind.exitCode !== 0) return;
  const checkout = await findCheckoutOf(git, defaultBranch);
  if (checkout === null) await git(['update-ref', `refs/heads/${defaultBranch}`, to, from], [0, 1, 128]);
  else await git(['merge', '--ff-only', '--quiet', to], [0, 1, 128], checkout);
}

/** The worktree that has `branch` checked out, or null. */
async function findCheckoutOf(git: Git, branch: string): Promise<string | null> {
  const entries = (await git(['worktree', 'list', '--porcelain'])).stdout.split(/\n\n+/);
  for (const entry of entries) {
    const lines = entry.split('\n');
    const path = lines.find((line) => line.startsWith('worktree '))?.slice('worktree '.length);
    if (path !== undefined && lines.includes(`branch refs/heads/${branch}`)) return path;
  }
  return null;
}
