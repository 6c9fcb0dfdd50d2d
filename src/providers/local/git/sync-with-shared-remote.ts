import { runGit } from '../../../process/run-command.ts';
import { findCleanCheckout, findWorktreeWithBranch, IntegrateRevisionError } from './integrate-revision.ts';

/** Where controllers publish their revision branches on the shared remote (src/cluster/create-cluster-git.ts). */
const PUBLISHED_HEADS = 'refs/flotilla/cluster/heads';
const GIT_TIMEOUT_MS = 120_000;
/** Commits named in a refusal's details, at most. */
const MAX_LISTED_COMMITS = 20;

export interface SharedRemoteTarget {
  repoRoot: string;
  /** The git remote the machines share (`cluster.remote`, by default `origin`). */
  remote: string;
  defaultBranch: string;
}

type Git = (args: string[], okExitCodes?: number[], cwd?: string) => ReturnType<typeof runGit>;

function gitIn(repoRoot: string): Git {
  return (args, okExitCodes = [0], cwd = repoRoot) =>
    runGit(args, { cwd, okExitCodes, timeoutMs: GIT_TIMEOUT_MS });
}

/**
 * Cluster mode, before a merge: fetches the shared remote's default branch (into
 * `refs/remotes/<remote>/<branch>`, as `git fetch` does) and fast-forwards this clone's default branch to it —
 * a compare-and-swap, or `git merge --ff-only` in its clean checkout. A default branch with commits the
 * remote's lacks (ahead or diverged) is refused with IntegrateRevisionError listing them: a merge would push
 * them, or lose them. Returns the remote's head, or null when the remote has no such branch yet.
 */
export async function syncDefaultBranch(target: SharedRemoteTarget): Promise<string | null> {
  const { repoRoot, remote, defaultBranch } = target;
  const git = gitIn(repoRoot);
  const tracking = `refs/remotes/${remote}/${defaultBranch}`;
  const fetched = await git(
    ['fetch', '--quiet', '--no-tags', remote, `+refs/heads/${defaultBranch}:${tracking}`],
    [0, 1, 128],
  );
  if (fetched.exitCode !== 0) {
    if (/couldn't find remote ref/i.test(fetched.stderr)) return null;
    throw new IntegrateRevisionError(
      `could not fetch ${defaultBranch} from the shared remote '${remote}' (cluster.remote); nothing was merged: ${fetched.stderr.trim()}`,
    );
  }
  const shared = (await git(['rev-parse', '--verify', `${tracking}^{commit}`])).stdout.trim();
  const local = await git(
    ['rev-parse', '--verify', '--quiet', `refs/heads/${defaultBranch}^{commit}`],
    [0, 1],
  );
  if (local.exitCode !== 0) return shared; // integrateRevision names the missing default branch.
  const current = local.stdout.trim();
  if (current === shared) return shared;
  await refuseOwnCommits(git, target);
  const worktree = await findCleanCheckout(repoRoot, defaultBranch);
  if (worktree === null) {
    await git([
      'update-ref',
      '-m',
      `flotilla: fast-forward to ${remote}`,
      `refs/heads/${defaultBranch}`,
      shared,
      current,
    ]);
    return shared;
  }
  const advanced = await git(['merge', '--ff-only', '--quiet', shared], [0, 1, 128], worktree);
  if (advanced.exitCode !== 0) {
    throw new IntegrateRevisionError(
      `git could not fast-forward ${defaultBranch} in ${worktree} to ${remote}/${defaultBranch}; nothing was merged: ${(advanced.stderr || advanced.stdout).trim()}`,
    );
  }
  return shared;
}

/** Refuses (IntegrateRevisionError listing them) when the default branch has commits the remote's lacks. */
async function refuseOwnCommits(git: Git, target: SharedRemoteTarget): Promise<void> {
  const { remote, defaultBranch } = target;
  const own = await git([
    'log',
    '--format=%h %s',
    `refs/remotes/${remote}/${defaultBranch}..refs/heads/${defaultBranch}`,
  ]);
  const commits = own.stdout.split('\n').filter((line) => line !== '');
  if (commits.length === 0) return;
  throw new IntegrateRevisionError(
    `${defaultBranch} here has ${commits.length} commit(s) that ${remote}/${defaultBranch} lacks; in a cluster Flotilla merges onto the shared ${defaultBranch} and neither pushes nor drops them. Push them (\`git pull --rebase ${remote} ${defaultBranch} && git push ${remote} ${defaultBranch}\`), or keep them on another branch and reset ${defaultBranch} to ${remote}/${defaultBranch}, then merge again. Nothing was changed. Commits:`,
    [
      ...commits.slice(0, MAX_LISTED_COMMITS),
      ...(commits.length > MAX_LISTED_COMMITS ? [`… ${commits.length - MAX_LISTED_COMMITS} more`] : []),
    ],
  );
}

/**
 * Cluster mode: the revision branch at the approved head, taken from what its controller published
 * (`refs/flotilla/cluster/heads/<branch>` on the shared remote) when this clone lacks it or is behind —
 * created, or fast-forwarded, never moved past commits of its own. Refuses (IntegrateRevisionError) when the
 * published branch is not at the approved head, or the local one has commits it lacks.
 */
export async function fetchRevisionBranch(
  target: SharedRemoteTarget & { branchName: string; headSHA: string },
): Promise<void> {
  const { repoRoot, remote, branchName, headSHA } = target;
  const git = gitIn(repoRoot);
  const ref = `refs/heads/${branchName}`;
  const local = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], [0, 1]);
  const current = local.exitCode === 0 ? local.stdout.trim() : null;
  if (current === headSHA) return;
  const published = `${PUBLISHED_HEADS}/${branchName}`;
  const fetched = await git(
    ['fetch', '--quiet', '--no-tags', remote, `+${published}:${published}`],
    [0, 1, 128],
  );
  if (fetched.exitCode !== 0) {
    throw new IntegrateRevisionError(
      `${branchName} is ${current === null ? 'not in this clone' : `at ${current.slice(0, 12)} here, not the approved ${headSHA.slice(0, 12)}`}, and it could not be fetched from ${published} on '${remote}' (the controller that wrote it publishes it before its next run); nothing was merged: ${fetched.stderr.trim()}`,
    );
  }
  const remoteHead = (await git(['rev-parse', '--verify', `${published}^{commit}`])).stdout.trim();
  if (remoteHead !== headSHA) {
    throw new IntegrateRevisionError(
      `${branchName} as published on '${remote}' is at ${remoteHead.slice(0, 12)}, not the approved ${headSHA.slice(0, 12)}; nothing was merged (the controller that recorded the head publishes it before its next run)`,
    );
  }
  if (current === null) {
    // Created only if still absent (the zero old value).
    await git(['update-ref', ref, headSHA, '0'.repeat(40)]);
    return;
  }
  const behind = await git(['merge-base', '--is-ancestor', current, headSHA], [0, 1]);
  const checkout = await findWorktreeWithBranch(repoRoot, ref);
  if (behind.exitCode !== 0 || checkout !== null) {
    throw new IntegrateRevisionError(
      `${branchName} here is at ${current.slice(0, 12)}${checkout === null ? ', with commits the approved head lacks' : ` and checked out in ${checkout}`}, so it is not moved to the approved ${headSHA.slice(0, 12)}; nothing was merged. Keep those commits elsewhere and \`git branch -f ${branchName} ${headSHA.slice(0, 12)}\`, then merge again`,
    );
  }
  await git(['update-ref', ref, headSHA, current]);
}

/**
 * Pushes `sha` to the shared remote's default branch, fast-forward only (never forced). `rejected`: the
 * remote's branch moved (another machine merged meanwhile); any other failure throws IntegrateRevisionError.
 */
export async function pushDefaultBranch(
  target: SharedRemoteTarget,
  sha: string,
): Promise<'pushed' | 'rejected'> {
  const { repoRoot, remote, defaultBranch } = target;
  const pushed = await gitIn(repoRoot)(
    ['push', '--porcelain', '--quiet', remote, `${sha}:refs/heads/${defaultBranch}`],
    [0, 1, 128],
  );
  if (pushed.exitCode === 0) return 'pushed';
  // Porcelain: `!\t<src>:<dst>\t[rejected] (fetch first|non-fast-forward)`; `[remote rejected]` is a hook's.
  if (/^!\t[^\t]*\t\[rejected\]/m.test(pushed.stdout)) return 'rejected';
  throw new IntegrateRevisionError(
    `could not push ${defaultBranch} to the shared remote '${remote}' (cluster.remote); nothing was merged: ${(pushed.stderr || pushed.stdout).trim()}`,
  );
}
