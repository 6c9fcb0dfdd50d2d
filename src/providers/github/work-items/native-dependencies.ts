import { type GitHubOctokit, httpStatusOf } from '../client/create-github-client.ts';
import type { GitHubRepository, Issue, ListedIssue } from './github-issue.ts';

/**
 * GitHub's native issue dependencies ("blocked by", REST `issues/{n}/dependencies/blocked_by`), where the
 * repository has them. Read: an issue whose `issue_dependencies_summary` counts blockers gets one more
 * (conditional) request for them — issues without blockers, and servers that send no summary, cost
 * nothing. Write: a created issue's blockers are added natively too. The body's dependency metadata is
 * always written as well, so a server without the endpoints (404: GitHub Enterprise Server before them)
 * loses nothing; after a 404 the endpoints are not asked again.
 */
export function createNativeDependencies(octokit: GitHubOctokit, repository: GitHubRepository) {
  const { owner, repo } = repository;
  let supported = true;

  function unsupported(error: unknown): boolean {
    if (httpStatusOf(error) !== 404) return false;
    supported = false;
    return true;
  }

  return {
    /** The issue numbers blocking the issue natively (open and closed blockers), in GitHub's order. */
    async blockedBy(issue: Issue | ListedIssue): Promise<string[]> {
      if (!supported || (issue.issue_dependencies_summary?.total_blocked_by ?? 0) === 0) return [];
      try {
        const blockers = await octokit.paginate(octokit.rest.issues.listDependenciesBlockedBy, {
          owner,
          repo,
          issue_number: issue.number,
          per_page: 100,
        });
        return blockers.map((blocker) => String(blocker.number));
      } catch (error) {
        if (unsupported(error)) return [];
        throw error;
      }
    },

    /** Adds each blocker natively (a blocker already there, or one GitHub refuses, is left to the body). */
    async add(issue: Issue | ListedIssue, blockedBy: readonly string[]): Promise<void> {
      if (!supported || blockedBy.length === 0) return;
      const present = new Set(await this.blockedBy(issue));
      for (const blocker of blockedBy) {
        if (!supported) return;
        if (present.has(blocker)) continue;
        // The endpoint takes the blocker's id, not its number (a conditional read: usually free).
        const blockerIssue = await octokit.rest.issues
          .get({ owner, repo, issue_number: Number(blocker) })
          .catch((error: unknown) => {
            if (httpStatusOf(error) === 404) return null; // no such issue: the body keeps the reference
            throw error;
          });
        if (blockerIssue === null) continue;
        try {
          await octokit.rest.issues.addBlockedByDependency({
            owner,
            repo,
            issue_number: issue.number,
            issue_id: blockerIssue.data.id,
          });
        } catch (error) {
          if (unsupported(error)) return;
          // 422: a cycle or a blocker in a repository GitHub will not link; the body keeps it.
          if (httpStatusOf(error) !== 422) throw error;
        }
      }
    },
  };
}
