import { mkdir } from 'node:fs/promises';
import { runGit } from '../../../process/run-command.ts';
import {
  type BranchFromPatch,
  createBranchFromPatch,
  type GitIdentity,
} from '../../shared/create-branch-from-patch.ts';

export interface GitRemote {
  /** e.g. https://github.com/acme/widgets.git, or a path (the fake GitHub's bare repository). */
  url: string;
  /**
   * Sent as an HTTP header through git's environment (never in its arguments, logs or the remote URL). A
   * function is asked once per push (a GitHub App's installation token changes hourly).
   */
  token?: string | (() => Promise<string>);
}

export interface PushPatchBranchParams {
  remote: GitRemote;
  /** A bare repository Flotilla keeps for this (created on first use); only fetched objects live there. */
  mirrorDir: string;
  defaultBranch: string;
  branchName: string;
  /** A `git diff --binary --full-index` patch, applied byte for byte by `git apply`. */
  patch: string | Buffer;
  commitMessage: string;
  author: GitIdentity;
  /**
   * The head the caller last saw on the branch (a pull request's head), or null when it expects no branch.
   * A branch that is elsewhere on the remote — a human pushed to it — is refused, never overwritten.
   * Undefined: whatever the branch holds is replaced (a leftover without a pull request).
   */
  expectedHeadSHA: string | null | undefined;
  /**
   * A line every commit this pushes carries in its message (e.g. `Flotilla-Work-Item: 12`). When given, an
   * existing branch whose head lacks it is someone else's work — a human pushed — and is refused, whatever
   * `expectedHeadSHA` says. The line is appended to `commitMessage`.
   */
  ownershipTrailer?: string;
  /** The commit the patch was made against (createBranchFromPatch's `base`: stacked work, issue #30). */
  base?: string;
  timeoutMs?: number;
}

export interface PushedPatchBranch extends BranchFromPatch {
  /** The branch's head on the remote before the push; null when it did not exist. */
  previousSHA: string | null;
}

/** The remote branch is not where the caller expected it: someone else pushed. Nothing was written. */
export class BranchMovedError extends Error {
  constructor(
    readonly branchName: string,
    readonly expected: string | null,
    readonly actual: string | null,
  ) {
    super(
      `Branch ${branchName} moved on the remote (expected ${expected ?? 'no branch'}, found ${actual ?? 'no branch'}): someone else pushed to it; refusing to overwrite`,
    );
    this.name = 'BranchMovedError';
  }
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * Makes `branchName` on the remote one commit above the remote default branch's head, that commit being the
 * patch applied by git itself (`createBranchFromPatch`: `git apply --cached` on a temporary index — binary
 * files, modes, renames and deletions exact; never rebuilt from hunks, docs/reference-behaviour.md §7 defect 1).
 * Steps: fetch the default branch (and the branch) into the mirror; refuse if the branch is not at
 * `expectedHeadSHA`; commit; push with `--force-with-lease=<branch>:<the head fetched>`, so a push that
 * lands in between is detected by the remote and not overwritten either. A patch that does not apply throws
 * PatchApplyError before anything is pushed.
 */
export async function pushPatchBranch(params: PushPatchBranchParams): Promise<PushedPatchBranch> {
  const { remote, mirrorDir, defaultBranch, branchName } = params;
  const timeoutMs = params.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const token = typeof remote.token === 'function' ? await remote.token() : remote.token;
  const auth = token === undefined ? {} : authEnv(token);
  const git = async (args: string[], env: Record<string, string> = {}) =>
    (
      await runGit(args, { cwd: mirrorDir, timeoutMs, env: { ...env, GIT_CONFIG_NOSYSTEM: '1' } })
    ).stdout.trim();

  await mkdir(mirrorDir, { recursive: true });
  await git(['init', '--bare', '--quiet']);
  const previousSHA = await remoteHead(git, remote.url, branchName, auth);
  if (params.expectedHeadSHA !== undefined && previousSHA !== params.expectedHeadSHA) {
    throw new BranchMovedError(branchName, params.expectedHeadSHA, previousSHA);
  }
  await git(
    [
      'fetch',
      '--quiet',
      '--no-tags',
      '--force',
      remote.url,
      `refs/heads/${defaultBranch}:refs/heads/${defaultBranch}`,
    ],
    auth,
  );
  const trailer = params.ownershipTrailer;
  if (trailer !== undefined && previousSHA !== null) {
    // By ref, not by SHA (not every server lets a client fetch a bare SHA); a move in between fails the lease.
    await git(
      ['fetch', '--quiet', '--no-tags', remote.url, `+refs/heads/${branchName}:refs/flotilla/remote-head`],
      auth,
    );
    const message = await git(['log', '-1', '--format=%B', 'refs/flotilla/remote-head']);
    if (!message.split('\n').includes(trailer)) {
      throw new BranchMovedError(branchName, `a commit carrying "${trailer}"`, previousSHA);
    }
  }
  // The mirror's own copy of the branch is scratch: drop it so createBranchFromPatch starts from nothing.
  await git(['update-ref', '-d', `refs/heads/${branchName}`]);

  const created = await createBranchFromPatch({
    repoRoot: mirrorDir,
    defaultBranch,
    branchName,
    patch: params.patch,
    commitMessage: trailer === undefined ? params.commitMessage : `${params.commitMessage}\n\n${trailer}`,
    author: params.author,
    ...(params.base !== undefined && { base: params.base }),
    timeoutMs,
  });
  try {
    await git(
      [
        'push',
        '--quiet',
        '--porcelain',
        `--force-with-lease=refs/heads/${branchName}:${previousSHA ?? ''}`,
        remote.url,
        `${created.headSHA}:refs/heads/${branchName}`,
      ],
      auth,
    );
  } catch (error) {
    const actual = await remoteHead(git, remote.url, branchName, auth).catch(() => null);
    if (actual !== previousSHA) throw new BranchMovedError(branchName, previousSHA, actual);
    throw error;
  }
  return { ...created, previousSHA };
}

async function remoteHead(
  git: (args: string[], env?: Record<string, string>) => Promise<string>,
  url: string,
  branchName: string,
  env: Record<string, string>,
): Promise<string | null> {
  const line = await git(['ls-remote', '--heads', url, `refs/heads/${branchName}`], env);
  const sha = line.split('\t')[0] ?? '';
  return /^[0-9a-f]{40}$/.test(sha) ? sha : null;
}

/** git config from the environment, so the token is in no command line (`ps`) and no remote URL. */
export function authEnv(token: string): Record<string, string> {
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.extraHeader',
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
}
