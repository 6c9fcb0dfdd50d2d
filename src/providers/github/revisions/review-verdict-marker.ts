import type { AgentReview } from '../../../domain/index.ts';
import { reviewStateForVerdict } from '../../../domain/index.ts';

/** The verdict hidden in every review Flotilla posts: what a `COMMENT` review cannot say by its state. */
const VERDICT = /\n*<!-- flotilla:verdict (approve|needs-changes) -->\s*$/;
/** The visible first line of a verdict posted as a `COMMENT` review. */
const HEADLINE = /^\*\*Flotilla reviewer: (?:approved|changes requested)\*\*\n\n/;

/**
 * A review's body: the summary, plus the verdict hidden at the end. `asComment`: the review goes out as a
 * `COMMENT` (the identity that reviews opened the pull request, and GitHub refuses its approval), so the
 * verdict also comes first, in words, for people reading the pull request.
 */
export function buildReviewBody(review: AgentReview, asComment: boolean): string {
  const headline = asComment
    ? `**Flotilla reviewer: ${review.verdict === 'approve' ? 'approved' : 'changes requested'}**\n\n`
    : '';
  return `${headline}${review.summary}\n\n<!-- flotilla:verdict ${review.verdict} -->`;
}

/**
 * A posted review as the engine reads it back: a `COMMENTED` review carrying Flotilla's verdict counts as
 * that verdict (`APPROVED` / `CHANGES_REQUESTED`), and the body is the summary again. Others are unchanged.
 */
export function readReviewVerdict(review: { state: string; body: string }): { state: string; body: string } {
  const verdict = VERDICT.exec(review.body)?.[1] as AgentReview['verdict'] | undefined;
  if (verdict === undefined) return review;
  const body = review.body.replace(VERDICT, '').replace(HEADLINE, '');
  return { state: review.state === 'COMMENTED' ? reviewStateForVerdict(verdict) : review.state, body };
}

/** Whether GitHub refused a review because its author opened the pull request (422, never retried as is). */
export function isOwnPullRequestRefusal(message: string): boolean {
  return /Can not (approve|request changes on) your own pull request/i.test(message);
}

/** Whether GitHub refused a review because a line comment is not on the diff (the whole review is refused). */
export function isOutsideDiffRefusal(message: string): boolean {
  return /must be part of the diff|could not be resolved|path is invalid|diff hunk can't be blank/i.test(
    message,
  );
}

/**
 * The reviews of a pull request as the engine reads them: each verdict `COMMENT` review of the reviewing
 * identity counts as its verdict, and one that a later verdict replaced as `DISMISSED` (GitHub cannot dismiss
 * a `COMMENT` review; an approval or a changes request is dismissed when replaced).
 */
export function readReviewVerdicts<T extends { author: string; state: string; body: string }>(
  reviews: T[],
  reviewer: string,
): T[] {
  const read = reviews.map((review) => ({
    ...review,
    ...readReviewVerdict(review),
    marked: VERDICT.test(review.body),
  }));
  const latest = read.findLastIndex(
    (review) => review.author === reviewer && review.marked && review.state !== 'DISMISSED',
  );
  return read.map(({ marked, ...review }, index) =>
    marked && review.author === reviewer && index < latest && reviews[index]?.state === 'COMMENTED'
      ? ({ ...review, state: 'DISMISSED' } as unknown as T)
      : (review as unknown as T),
  );
}
