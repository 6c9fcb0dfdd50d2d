import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildPlannerRun,
  buildReviewerRun,
  buildTestState,
} from '../../../../test/support/shared/builders/index.ts';
import { getLatestRunForWorkItem } from './get-latest-run-for-work-item.ts';

describe('getLatestRunForWorkItem', () => {
  const first = buildImplementorRun({
    sessionID: 'i-1',
    workItemID: 'wi-1',
    requestedAt: 100,
    status: 'failed',
  });
  const review = buildReviewerRun({
    sessionID: 'r-1',
    workItemID: 'wi-1',
    requestedAt: 300,
    status: 'completed',
  });
  const second = buildImplementorRun({
    sessionID: 'i-2',
    workItemID: 'wi-1',
    requestedAt: 200,
    status: 'completed',
  });
  const state = buildTestState({
    agentRuns: [
      first,
      review,
      second,
      buildImplementorRun({ sessionID: 'other', workItemID: 'wi-2', requestedAt: 900 }),
      buildPlannerRun({ sessionID: 'p', requestedAt: 999 }),
    ],
  });

  it('returns the most recently requested run of any status for the item', () => {
    expect(getLatestRunForWorkItem(state, 'wi-1')).toBe(review);
  });

  it('filters by role when asked', () => {
    expect(getLatestRunForWorkItem(state, 'wi-1', 'implementor')).toBe(second);
    expect(getLatestRunForWorkItem(state, 'wi-2', 'reviewer')).toBeNull();
  });

  it('returns null for an item without runs', () => {
    expect(getLatestRunForWorkItem(state, 'wi-3')).toBeNull();
  });

  it('prefers the run stored later when request times are equal', () => {
    const a = buildImplementorRun({ sessionID: 'a', workItemID: 'wi-1', requestedAt: 5 });
    const b = buildReviewerRun({ sessionID: 'b', workItemID: 'wi-1', requestedAt: 5 });
    expect(getLatestRunForWorkItem(buildTestState({ agentRuns: [a, b] }), 'wi-1')).toBe(b);
  });
});
