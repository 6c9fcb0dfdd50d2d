import { mentionsTrigger, type RevisionFeedback } from '../../../domain/index.ts';
import type { Logger } from '../../../logging/logger.ts';
import { type GitHubOctokit, httpStatusOf } from '../client/create-github-client.ts';

type Review = Awaited<ReturnType<GitHubOctokit['rest']['pulls']['listReviews']>>['data'][number];
type ReviewComment = Awaited<
  ReturnType<GitHubOctokit['rest']['pulls']['listReviewComments']>
>['data'][number];
type IssueComment = Awaited<ReturnType<GitHubOctokit['rest']['issues']['listComments']>>['data'][number];

/** Hidden in every reply: the feedback it answers, so a later read (or a restart) leaves that out. */
const ANSWERED = /<!-- flotilla:answered ([a-z0-9 -]+) -->/g;
/** Anything Flotilla writes carries a hidden `flotilla:` marker; such text never steers it. */
const FLOTILLA_MARKER = '<!-- flotilla:';
const NUMBER = /^[1-9][0-9]{0,9}$/;

export interface GitHubFeedbackOptions {
  octokit: GitHubOctokit;
  owner: string;
  repo: string;
  /** Flotilla's own logins (the engine's, and the reviewer identity's when there is one). */
  ownLogins(): Promise<readonly string[]>;
  /** `github.answerAuthorAssociations`: who may steer (the same rule as answers to questions). */
  answerAuthorAssociations: readonly string[];
  /** `github.mentionTrigger`, e.g. `@flotilla`. */
  mentionTrigger: string;
  logger: Logger;
}

interface Author {
  login: string;
  bot: boolean;
  association: string;
}

/**
 * Humans steering from a pull request (issue #26). `listFeedback` reads the pull request's reviews, review
 * comments and conversation (three conditional requests: 304s, no quota, when nothing changed) and returns,
 * oldest first: `REQUEST_CHANGES` and `APPROVE` reviews, a changes request's line comments, and any review,
 * line comment or conversation comment that mentions the trigger — by authors whose `author_association`
 * is allowed, never Flotilla's own logins, bots, or text carrying Flotilla's hidden marker (each refused
 * trigger logged once) — and not yet answered (a Flotilla reply names what it answers in a hidden marker).
 * `replyToFeedback` answers a line comment in its thread and everything else in one conversation comment
 * quoting and linking it.
 */
export function createGitHubFeedback(options: GitHubFeedbackOptions) {
  const { octokit, owner, repo, logger, mentionTrigger } = options;
  const allowed = new Set(options.answerAuthorAssociations);
  const reported = new Set<string>();

  function trusted(id: string, author: Author, own: ReadonlySet<string>, url: string | null): boolean {
    if (own.has(author.login)) return false;
    if (!author.bot && allowed.has(author.association)) return true;
    if (!reported.has(id)) {
      reported.add(id);
      logger.info(
        `GitHub: ${id} by ${author.login} does not steer Flotilla: ${
          author.bot
            ? 'it is a bot'
            : `its author_association is ${author.association}; github.answerAuthorAssociations allows ${[...allowed].join(', ') || 'none'}`
        }`,
        { url },
      );
    }
    return false;
  }

  const authorOf = (item: {
    user?: { login: string; type?: string } | null;
    author_association: string;
  }): Author | null =>
    item.user == null
      ? null // a deleted account ("ghost")
      : { login: item.user.login, bot: item.user.type === 'Bot', association: item.author_association };

  return {
    async listFeedback(revisionID: string): Promise<RevisionFeedback[]> {
      if (!NUMBER.test(revisionID)) return [];
      const pull_number = Number(revisionID);
      const [reviews, lineComments, comments, ownLogins] = await Promise.all([
        octokit.paginate(octokit.rest.pulls.listReviews, { owner, repo, pull_number, per_page: 100 }),
        octokit.paginate(octokit.rest.pulls.listReviewComments, { owner, repo, pull_number, per_page: 100 }),
        octokit.paginate(octokit.rest.issues.listComments, {
          owner,
          repo,
          issue_number: pull_number,
          per_page: 100,
        }),
        options.ownLogins(),
      ]);
      const own = new Set(ownLogins);
      const answered = new Set<string>();
      for (const written of [...lineComments, ...comments]) {
        if (written.user == null || !own.has(written.user.login)) continue;
        for (const match of (written.body ?? '').matchAll(ANSWERED)) {
          for (const id of (match[1] ?? '').split(' ')) answered.add(id);
        }
      }
      const mentions = (body: string | null | undefined) =>
        body != null && !body.includes(FLOTILLA_MARKER) && mentionsTrigger(body, mentionTrigger);

      const feedback: RevisionFeedback[] = [];
      const changesRequests = new Set<number>();
      for (const review of reviews as Review[]) {
        const id = `review-${review.id}`;
        const steers =
          review.state === 'CHANGES_REQUESTED' ||
          review.state === 'APPROVED' ||
          (review.state === 'COMMENTED' && mentions(review.body));
        const author = authorOf(review);
        if (!steers || author === null || (review.body ?? '').includes(FLOTILLA_MARKER)) continue;
        if (!trusted(id, author, own, review.html_url)) continue;
        if (review.state === 'CHANGES_REQUESTED') changesRequests.add(review.id);
        feedback.push({
          id,
          kind: 'review',
          state: review.state as 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED',
          author: author.login,
          body: review.body ?? '',
          path: null,
          line: null,
          diffHunk: null,
          commitSHA: review.commit_id ?? null,
          url: review.html_url,
          createdAt: new Date(review.submitted_at ?? 0).toISOString(),
        });
      }
      for (const comment of lineComments as ReviewComment[]) {
        const id = `line-${comment.id}`;
        const partOfChangesRequest =
          comment.pull_request_review_id != null && changesRequests.has(comment.pull_request_review_id);
        const author = authorOf(comment);
        if (author === null || (comment.body ?? '').includes(FLOTILLA_MARKER)) continue;
        if (!partOfChangesRequest && !mentions(comment.body)) continue;
        if (!trusted(id, author, own, comment.html_url)) continue;
        feedback.push({
          id,
          kind: 'line-comment',
          state: null,
          author: author.login,
          body: comment.body,
          path: comment.path,
          line: comment.subject_type === 'file' ? null : (comment.line ?? null),
          diffHunk: comment.diff_hunk ?? null,
          commitSHA: comment.commit_id ?? null,
          url: comment.html_url,
          createdAt: new Date(comment.created_at).toISOString(),
        });
      }
      for (const comment of comments as IssueComment[]) {
        const id = `comment-${comment.id}`;
        const author = authorOf(comment);
        if (author === null || !mentions(comment.body)) continue;
        if (!trusted(id, author, own, comment.html_url)) continue;
        feedback.push({
          id,
          kind: 'comment',
          state: null,
          author: author.login,
          body: comment.body ?? '',
          path: null,
          line: null,
          diffHunk: null,
          commitSHA: null,
          url: comment.html_url,
          createdAt: new Date(comment.created_at).toISOString(),
        });
      }
      return feedback
        .filter((entry) => !answered.has(entry.id))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async replyToFeedback(revisionID: string, feedback: readonly RevisionFeedback[], body: string) {
      if (!NUMBER.test(revisionID))
        throw new Error(`Revision ${revisionID} not found (not a pull request number)`);
      const pull_number = Number(revisionID);
      const quoted: RevisionFeedback[] = [];
      for (const entry of feedback) {
        const commentID = /^line-(\d+)$/.exec(entry.id)?.[1];
        if (commentID === undefined) {
          quoted.push(entry);
          continue;
        }
        try {
          await octokit.rest.pulls.createReplyForReviewComment({
            owner,
            repo,
            pull_number,
            comment_id: Number(commentID),
            body: `${body}\n\n<!-- flotilla:answered ${entry.id} -->`,
          });
        } catch (error) {
          // The comment was deleted meanwhile: the answer goes into the conversation instead.
          if (httpStatusOf(error) !== 404) throw error;
          quoted.push(entry);
        }
      }
      if (quoted.length === 0) return;
      await octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: pull_number,
        body: `${quoted.map(quote).join('\n\n')}\n\n${body}\n\n<!-- flotilla:answered ${quoted.map((entry) => entry.id).join(' ')} -->`,
      });
    },
  };
}

/** A short quote of the feedback answered, linked, so the conversation reads as question and answer. */
function quote(entry: RevisionFeedback): string {
  const what =
    entry.kind === 'review'
      ? `review (${entry.state === 'CHANGES_REQUESTED' ? 'changes requested' : (entry.state ?? 'review').toLowerCase()})`
      : entry.kind === 'line-comment'
        ? `comment on \`${entry.path}${entry.line === null ? '' : `:${entry.line}`}\``
        : 'comment';
  const link = entry.url === null ? what : `[${what}](${entry.url})`;
  const lines = entry.body.trim().split('\n').slice(0, 6);
  const text =
    lines.length === 0 || lines[0] === '' ? '' : `\n${lines.map((line) => `> ${line}`).join('\n')}`;
  return `> @${entry.author}'s ${link}:${text}`;
}
