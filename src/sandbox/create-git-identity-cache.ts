import { AVAILABILITY_TTL_MS } from '../shared/create-cached-check.ts';
import { type GitIdentity, readGitIdentity } from './prepare-sandbox-git-dir.ts';

export interface GitIdentityCacheOptions {
  /** Reads the identity in a worktree. Default: `readGitIdentity` (one `git config` process). */
  read?: (worktree: string) => Promise<GitIdentity>;
  /** How long an answer is reused. Default 30 s (AVAILABILITY_TTL_MS): a changed `git config` shows soon. */
  ttlMs?: number;
  now?: () => number;
}

/**
 * The commit identity of each repository's sandboxed git directories, read once per repository every
 * `ttlMs` instead of a git process before every run: the agents' worktrees of one repository share its
 * configuration (Flotilla sets nothing per worktree). Concurrent runs share one read; a failed read is
 * not kept.
 */
export function createGitIdentityCache(options: GitIdentityCacheOptions = {}) {
  const read = options.read ?? readGitIdentity;
  const ttlMs = options.ttlMs ?? AVAILABILITY_TTL_MS;
  const now = options.now ?? Date.now;
  const cached = new Map<string, { identity: Promise<GitIdentity>; at: number }>();
  return {
    /** The identity for `worktree` of the repository `repoRoot`. */
    get(repoRoot: string, worktree: string): Promise<GitIdentity> {
      const at = now();
      const entry = cached.get(repoRoot);
      if (entry !== undefined && at - entry.at < ttlMs) return entry.identity;
      const identity = read(worktree);
      const fresh = { identity, at };
      cached.set(repoRoot, fresh);
      identity.catch(() => {
        if (cached.get(repoRoot) === fresh) cached.delete(repoRoot);
      });
      return identity;
    },
  };
}
