import type { ReviewerResult, ReviewVerdict } from '../../../../src/domain/index.ts';

/** A reviewer verdict with one inline comment. */
export function buildReviewerResult(verdict: ReviewVerdict = 'approve'): ReviewerResult {
  return {
    role: 'reviewer',
    review: {
      verdict,
      summary: verdict === 'approve' ? 'Looks good.' : 'Please handle empty input.',
      comments: [{ path: 'src/parser.ts', line: 1, body: verdict === 'approve' ? 'Nice.' : 'Empty input?' }],
    },
  };
}
