import type { Logger } from '../../../logging/logger.ts';
import { runGit } from '../../../process/run-command.ts';
import { messageOf } from '../../../shared/message-of.ts';
import type { WorkBaseSync } from '../../types.ts';
import { authEnv, type GitRemote } from './push-patch-branch.ts';

/** Where fetched branches live in the local repository: Flotilla's refs, never the user's branches. */
export const UPSTREAM_REF_PREFIX = 'refs/flotilla/upstream/';
const GIT_TIMEOUT_MS = 5 * 60_000;
/**
 * A branch name safe in a refspec: what GitHub allows but `:`, `*`, `..`, spaces and the like (a head ref
 * comes from the tracker, so a human's branch name never rewrites another ref or reads as an option).
 */
const SAFE_BRANCH = /^(?!-)(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._/-]+(?<![./])$/;

export interface GitHubWorkBaseOptions {
  /** The user's clone, where worktrees are made. */
  repoRoot: string;
  remote: GitRemote;
  defaultBranch(): Promise<string>;
  logger: Logger;
}

interface Batch {
  branches: Set<string>;
  result: Promise<{ defaultBranchHead: string }>;
}

/**
 * `Provider.workBase` for GitHub (issue #30): one `git fetch` of the default branch and the asked-for
 * branches into `refs/flotilla/upstream/*` of the local clone; the token reaches git through its environment
 * only, as for pushes. Git's smart protocol costs no REST or GraphQL point, and a fetch where nothing moved
 * transfers the ref advertisement only. One fetch runs at a time; the dispatches that ask while it runs share
 * the next one (50 slots filling at once fetch twice, not 50 times), which starts after each of them asked.
 */
export function createGitHubWorkBase(options: GitHubWorkBaseOptions): WorkBaseSync {
  const { repoRoot, remote, logger } = options;
  let running: Promise<unknown> = Promise.resolve();
  let next: Batch | null = null;

  async function fetchRefs(branches: readonly string[]): Promise<void> {
    const token = typeof remote.token === 'function' ? await remote.token() : remote.token;
    const refspecs = branches.map((branch) => `+refs/heads/${branch}:${UPSTREAM_REF_PREFIX}${branch}`);
    await runGit(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', remote.url, ...refspecs], {
      cwd: repoRoot,
      timeoutMs: GIT_TIMEOUT_MS,
      env: token === undefined ? {} : authEnv(token),
    });
  }

  async function fetchOnce(asked: readonly string[]): Promise<{ defaultBranchHead: string }> {
    const base = await options.defaultBranch();
    const branches = [...new Set(asked)].filter((branch) => branch !== base);
    const unsafe = branches.filter((branch) => !SAFE_BRANCH.test(branch));
    if (unsafe.length > 0) logger.warn('not fetching branches with unexpected names', { branches: unsafe });
    const wanted = branches.filter((branch) => SAFE_BRANCH.test(branch));
    try {
      await fetchRefs([base, ...wanted]);
    } catch (error) {
      if (wanted.length === 0) throw error;
      // A revision branch gone (merged and deleted): the default branch alone still counts.
      logger.warn('could not fetch the revision branches a run builds on; fetching the default branch only', {
        branches: wanted,
        error: messageOf(error),
      });
      await fetchRefs([base]);
    }
    const { stdout } = await runGit(['rev-parse', '--verify', `${UPSTREAM_REF_PREFIX}${base}^{commit}`], {
      cwd: repoRoot,
      timeoutMs: GIT_TIMEOUT_MS,
    });
    return { defaultBranchHead: stdout.trim() };
  }

  return {
    sync(branches) {
      let batch = next;
      if (batch === null) {
        const created: Batch = {
          branches: new Set(),
          result: running
            .catch(() => {})
            .then(() => {
              if (next === created) next = null; // from here on, a new ask waits for the fetch after this one
              return fetchOnce([...created.branches]);
            }),
        };
        batch = created;
        next = created;
        running = created.result;
      }
      for (const branch of branches) batch.branches.add(branch);
      return batch.result;
    },
  };
}
