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
  state: string;
  body: string;
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
