import type { ReviewerRun } from '../../../../src/domain/index.ts';
import { buildRunBase } from './build-run-base.ts';

/** A running reviewer of `rev-1` for `wi-1`, unless overridden. */
export function buildReviewerRun(overrides: Partial<ReviewerRun> = {}): ReviewerRun {
  const sessionID = overrides.sessionID ?? 'reviewer-session-1';
  return {
    ...buildRunBase(sessionID, overrides.status ?? 'running'),
    role: 'reviewer',
    workItemID: 'wi-1',
    revisionID: 'rev-1',
    ...overrides,
  };
}
