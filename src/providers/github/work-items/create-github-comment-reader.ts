import type { Logger } from '../../../logging/logger.ts';
import type { WorkItemComment } from '../../types.ts';
import { type GitHubOctokit, httpStatusOf } from '../client/create-github-client.ts';
import type { GitHubRepository } from './github-issue.ts';

const ISSUE_NUMBER = /^[1-9][0-9]{0,9}$/;
/**
 * `since` is moved back this far: it is the engine's clock, GitHub filters on its own, and a questions
 * comment hidden by a clock running ahead would never be answered. Older comments cost nothing more.
 */
const CLOCK_SKEW_ALLOWANCE_MS = 24 * 60 * 60 * 1000;

type IssueComment = Awaited<ReturnType<GitHubOctokit['rest']['issues']['listComments']>>['data'][number];

export interface GitHubCommentReaderOptions {
  octokit: GitHubOctokit;
  repository: GitHubRepository;
  /** The login the engine's comments are written as (the token's user, or the App's `<slug>[bot]`). */
  engineLogin: () => Promise<string>;
  /** The `author_association` values whose comments may answer questions (e.g. OWNER, MEMBER, COLLABORATOR). */
  answerAuthorAssociations: readonly string[];
  logger: Logger;
}

/**
 * `listComments` for the answer poller: an issue's comments oldest first, `Link`-paginated and conditional
 * (an unchanged issue costs a 304, no quota), from a day before `since`. Only comments that may steer an
 * agent come back: the engine's own (the questions comment, answers `flotilla answer` posted) and humans
 * whose `author_association` is allowed; other bots and everyone else (a drive-by user on a public
 * repository) are left out, each logged once.
 */
export function createGitHubCommentReader(options: GitHubCommentReaderOptions) {
  const { octokit, logger } = options;
  const { owner, repo } = options.repository;
  const allowed = new Set(options.answerAuthorAssociations);
  const reported = new Set<number>();

  function mayAnswer(comment: IssueComment, engineLogin: string, issue: string): boolean {
    const login = comment.user?.login;
    if (login === undefined) return false; // a deleted account ("ghost")
    if (login === engineLogin) return true;
    const bot = comment.user?.type === 'Bot';
    if (!bot && allowed.has(comment.author_association)) return true;
    if (!reported.has(comment.id)) {
      reported.add(comment.id);
      logger.info(
        `GitHub: a comment on #${issue} by ${login} is not read as an answer: ${
          bot
            ? 'it is a bot'
            : `its author_association is ${comment.author_association}; github.answerAuthorAssociations allows ${[...allowed].join(', ') || 'none'}`
        }`,
        { commentURL: comment.html_url },
      );
    }
    return false;
  }

  async function fetchComments(id: string, since: string | undefined): Promise<IssueComment[]> {
    if (!ISSUE_NUMBER.test(id)) throw new Error(`Work item ${id} not found (not an issue number)`);
    try {
      return await octokit.paginate(octokit.rest.issues.listComments, {
        owner,
        repo,
        issue_number: Number(id),
        per_page: 100,
        ...(since !== undefined && { since }),
      });
    } catch (error) {
      if (httpStatusOf(error) !== 404 && httpStatusOf(error) !== 410) throw error;
      throw new Error(`Work item ${id} not found (no issue #${id} in ${owner}/${repo})`, { cause: error });
    }
  }

  const toWorkItemComment = (comment: IssueComment): WorkItemComment => ({
    author: comment.user?.login ?? '',
    body: comment.body ?? '',
    createdAt: new Date(comment.created_at).toISOString(),
  });

  return {
    async listComments(id: string, query: { since?: string } = {}): Promise<WorkItemComment[]> {
      const since = query.since === undefined ? undefined : githubSince(query.since);
      const comments = await fetchComments(id, since);
      const engineLogin = await options.engineLogin();
      return comments.filter((comment) => mayAnswer(comment, engineLogin, id)).map(toWorkItemComment);
    },
    /** The engine's own comments on the issue, oldest first: what it mirrored there (task context). */
    async listEngineComments(id: string): Promise<WorkItemComment[]> {
      const comments = await fetchComments(id, undefined);
      const engineLogin = await options.engineLogin();
      return comments.filter((comment) => comment.user?.login === engineLogin).map(toWorkItemComment);
    },
  };
}

/**
 * GitHub's `since` (whole seconds), a day before the given instant. The same instant gives the same URL on
 * every poll, so the conditional-request cache answers an unchanged issue with a free 304.
 */
function githubSince(iso: string): string | undefined {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return undefined;
  return new Date(Math.floor((at - CLOCK_SKEW_ALLOWANCE_MS) / 1000) * 1000)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
}
