export type ReviewVerdict = 'approve' | 'needs-changes';

export interface AgentReviewComment {
  path: string;
  line: number | null;
  body: string;
}

/** The reviewer agent's verdict on a revision. */
export interface AgentReview {
  verdict: ReviewVerdict;
  summary: string;
  comments: AgentReviewComment[];
}

export interface ReviewHistoryEntry {
  author: string;
  /** GitHub's state: a review replaced by a later one is `DISMISSED`. */
  state: string;
  body: string;
  /**
   * What the review said when posted (`APPROVED`, `CHANGES_REQUESTED`, `COMMENTED`), kept when it is later
   * dismissed; absent when the provider does not know it.
   */
  verdict?: string;
}

export interface ReviewHistoryInlineComment {
  path: string;
  line: number | null;
  author: string;
  body: string;
}

/** Earlier reviews and inline comments on a revision, given to agents as context. */
export interface ReviewHistory {
  reviews: ReviewHistoryEntry[];
  inlineComments: ReviewHistoryInlineComment[];
}

/** The review state a verdict is recorded as (GitHub's names, used by every provider). */
export function reviewStateForVerdict(verdict: ReviewVerdict): 'APPROVED' | 'CHANGES_REQUESTED' {
  return verdict === 'approve' ? 'APPROVED' : 'CHANGES_REQUESTED';
}

/**
 * What a review said, in the words every view uses: `approved`, `changes requested`, `commented`, or —
 * when the provider kept no verdict of a review a later one replaced — `dismissed`. `replaced` says a later
 * review took its place (GitHub's `DISMISSED`), which is history, not a verdict.
 */
export function describeReviewVerdict(review: Pick<ReviewHistoryEntry, 'state' | 'verdict'>): {
  said: 'approved' | 'changes requested' | 'commented' | 'dismissed';
  replaced: boolean;
} {
  const verdict = review.verdict ?? review.state;
  const said =
    verdict === 'APPROVED'
      ? 'approved'
      : verdict === 'CHANGES_REQUESTED'
        ? 'changes requested'
        : verdict === 'COMMENTED'
          ? 'commented'
          : 'dismissed';
  return { said, replaced: review.state === 'DISMISSED' };
}
