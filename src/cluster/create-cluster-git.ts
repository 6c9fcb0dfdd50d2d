import { runGit } from '../process/run-command.ts';
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
