import {
  buildReview,
  buildReviewComment,
  type FakeReviewComment,
  githubTimestamp,
} from './build-fake-github-resources.ts';
import {
  diffHunkAt,
  type FakeGitHubStore,
  type FakePullIssue,
  type FakeRoute,
  HttpError,
  headSideLines,
  ok,
  route,
} from './create-fake-github-store.ts';
import { stringOrNull } from './read-fake-github-body.ts';

const REVIEW_DOCS = 'https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request';
const COMMENT_DOCS = 'https://docs.github.com/rest/pulls/comments#create-a-review-comment-for-a-pull-request';

/**
 * Pull request reviews and review comments, with GitHub's rules: the pull request's author cannot approve
 * it or request changes on it (422 "Can not approve your own pull request"); a review whose line comment is
 * not on the diff is refused whole (422 "Pull request review thread line must be part of the diff"); only an
 * approval or a changes request can be dismissed; a reply goes to a thread's first comment.
 */
export function buildFakeReviewRoutes(store: FakeGitHubStore): FakeRoute[] {
  const { repoPath, urls, nextID, requirePull, headSHA, paginate, filePatches } = store;

  /** Where a line comment goes on the diff (GitHub resolves `line` on the head side, `RIGHT`), or 422. */
  async function placeLineComment(
    issue: FakePullIssue,
    comment: Record<string, unknown>,
    docs: string,
  ): Promise<{ path: string; line: number; diffHunk: string }> {
    const patches = await filePatches(issue.pull);
    const patch = typeof comment.path === 'string' ? patches.get(comment.path) : undefined;
    if (patch === undefined) {
      throw new HttpError(422, 'Unprocessable Entity', {
        errors: ['Pull request review thread path is invalid'],
        documentation_url: docs,
      });
    }
    const line = comment.line;
    const onDiff =
      typeof line === 'number' &&
      (comment.side === undefined || comment.side === 'RIGHT') &&
      headSideLines(patch).has(line);
    if (!onDiff) {
      throw new HttpError(422, 'Unprocessable Entity', {
        errors: ['Pull request review thread line must be part of the diff'],
        documentation_url: docs,
      });
    }
    return { path: String(comment.path), line, diffHunk: diffHunkAt(patch, line) ?? '' };
  }

  return [
    route('GET', `${repoPath}/pulls/(\\d+)/reviews`, async ([pullNumber], query) => {
      const issue = requirePull(pullNumber);
      return paginate(issue.pull.reviews, query, `${repoPath}/pulls/${issue.number}/reviews`, (review) =>
        buildReview(review, issue.number, urls()),
      );
    }),
    route('POST', `${repoPath}/pulls/(\\d+)/reviews`, async ([pullNumber], _query, body, caller) => {
      const issue = requirePull(pullNumber);
      const states = {
        APPROVE: 'APPROVED',
        REQUEST_CHANGES: 'CHANGES_REQUESTED',
        COMMENT: 'COMMENTED',
      } as const;
      const state = states[String(body.event) as keyof typeof states];
      if (state === undefined) {
        throw new HttpError(422, 'Unprocessable Entity', {
          errors: ['event must be APPROVE, REQUEST_CHANGES or COMMENT'],
          documentation_url: REVIEW_DOCS,
        });
      }
      // "Pull request authors cannot approve their own pull requests" — nor request changes on them.
      if (issue.user.login === caller.user.login && state !== 'COMMENTED') {
        throw new HttpError(422, 'Unprocessable Entity', {
          errors: [
            state === 'APPROVED'
              ? 'Can not approve your own pull request'
              : 'Can not request changes on your own pull request',
          ],
          documentation_url: REVIEW_DOCS,
        });
      }
      const commitID = await headSHA(issue.pull);
      const now = githubTimestamp(Date.now());
      const comments = Array.isArray(body.comments) ? (body.comments as Record<string, unknown>[]) : [];
      // All or nothing: one comment off the diff refuses the whole review.
      const placed = [];
      for (const comment of comments) placed.push(await placeLineComment(issue, comment, REVIEW_DOCS));
      const review = {
        id: nextID(),
        user: caller.user,
        body: stringOrNull(body.body) ?? '',
        state,
        commitID,
        submittedAt: now,
        ...(caller.association !== undefined && { authorAssociation: caller.association }),
      };
      issue.pull.reviews.push(review);
      placed.forEach((place, index) => {
        issue.pull.reviewComments.push({
          id: nextID(),
          reviewID: review.id,
          user: caller.user,
          ...place,
          body: String(comments[index]?.body ?? ''),
          commitID,
          createdAt: now,
          ...(caller.association !== undefined && { authorAssociation: caller.association }),
        });
      });
      return ok(buildReview(review, issue.number, urls()));
    }),
    route('GET', `${repoPath}/pulls/(\\d+)/reviews/(\\d+)`, async ([pullNumber, reviewID]) => {
      const issue = requirePull(pullNumber);
      const review = issue.pull.reviews.find((candidate) => candidate.id === Number(reviewID));
      if (review === undefined) throw new HttpError(404, 'Not Found');
      return ok(buildReview(review, issue.number, urls()));
    }),
    route('PUT', `${repoPath}/pulls/(\\d+)/reviews/(\\d+)/dismissals`, async ([pullNumber, reviewID]) => {
      const issue = requirePull(pullNumber);
      const review = issue.pull.reviews.find((candidate) => candidate.id === Number(reviewID));
      if (review === undefined) throw new HttpError(404, 'Not Found');
      if (review.state !== 'APPROVED' && review.state !== 'CHANGES_REQUESTED') {
        throw new HttpError(422, 'Unprocessable Entity', {
          errors: ['Can not dismiss a commented pull request review'],
        });
      }
      review.state = 'DISMISSED';
      return ok(buildReview(review, issue.number, urls()));
    }),
    route('GET', `${repoPath}/pulls/(\\d+)/comments`, async ([pullNumber], query) => {
      const issue = requirePull(pullNumber);
      return paginate(
        issue.pull.reviewComments,
        query,
        `${repoPath}/pulls/${issue.number}/comments`,
        (comment) => buildReviewComment(comment, issue.number, urls()),
      );
    }),
    route(
      'POST',
      `${repoPath}/pulls/(\\d+)/comments/(\\d+)/replies`,
      async ([pullNumber, commentID], _query, body, caller) => {
        const issue = requirePull(pullNumber);
        const parent = issue.pull.reviewComments.find((candidate) => candidate.id === Number(commentID));
        if (parent === undefined) throw new HttpError(404, 'Not Found');
        if (typeof body.body !== 'string' || body.body === '') {
          throw new HttpError(422, 'Validation Failed', {
            errors: [{ resource: 'PullRequestReviewComment', code: 'missing_field', field: 'body' }],
          });
        }
        // "Replies to replies are not supported": the reply joins the thread of its first comment.
        const reply: FakeReviewComment = {
          id: nextID(),
          reviewID: null,
          user: caller.user,
          path: parent.path,
          line: parent.line,
          body: body.body,
          commitID: parent.commitID,
          createdAt: githubTimestamp(Date.now()),
          inReplyTo: parent.inReplyTo ?? parent.id,
          ...(caller.association !== undefined && { authorAssociation: caller.association }),
          ...(parent.diffHunk !== undefined && { diffHunk: parent.diffHunk }),
        };
        issue.pull.reviewComments.push(reply);
        return ok(buildReviewComment(reply, issue.number, urls()), 201);
      },
    ),
    route('POST', `${repoPath}/pulls/(\\d+)/comments`, async ([pullNumber], _query, body, caller) => {
      const issue = requirePull(pullNumber);
      if (
        typeof body.path !== 'string' ||
        typeof body.body !== 'string' ||
        typeof body.commit_id !== 'string'
      ) {
        throw new HttpError(422, 'Validation Failed', { errors: ['path, body and commit_id are required'] });
      }
      const fileLevel = body.subject_type === 'file';
      let place: { path: string; line: number | null; diffHunk?: string };
      if (fileLevel) {
        if (!(await filePatches(issue.pull)).has(body.path)) {
          throw new HttpError(422, 'Validation Failed', {
            errors: ['Pull request review thread path is invalid'],
            documentation_url: COMMENT_DOCS,
          });
        }
        place = { path: body.path, line: null };
      } else {
        place = await placeLineComment(issue, body, COMMENT_DOCS);
      }
      const comment: FakeReviewComment = {
        id: nextID(),
        reviewID: null,
        user: caller.user,
        ...place,
        body: body.body,
        commitID: body.commit_id,
        createdAt: githubTimestamp(Date.now()),
        ...(caller.association !== undefined && { authorAssociation: caller.association }),
      };
      issue.pull.reviewComments.push(comment);
      return ok(buildReviewComment(comment, issue.number, urls()), 201);
    }),
  ];
}
