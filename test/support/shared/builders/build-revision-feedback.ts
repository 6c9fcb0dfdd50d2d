import type { RevisionFeedback } from '../../../../src/domain/index.ts';

/** A human's changes-request review on `head-rev-1` (by `octocat`), unless overridden. */
export function buildRevisionFeedback(overrides: Partial<RevisionFeedback> = {}): RevisionFeedback {
  return {
    id: 'review-1',
    kind: 'review',
    state: 'CHANGES_REQUESTED',
    author: 'octocat',
    body: 'Please trim the name.',
    path: null,
    line: null,
    diffHunk: null,
    commitSHA: 'head-rev-1',
    url: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}
