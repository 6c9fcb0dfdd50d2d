import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildPlannerRun,
  buildReviewerRun,
  buildTestState,
} from '../../../../test/support/shared/builders/index.ts';
import { countActiveRuns } from './count-active-runs.ts';

describe('countActiveRuns', () => {
  const state = buildTestState({
    agentRuns: [
      buildPlannerRun({ sessionID: 'p', status: 'running' }),
      buildImplementorRun({ sessionID: 'i-1', workItemID: 'wi-1', status: 'requested' }),
      buildImplementorRun({ sessionID: 'i-2', workItemID: 'wi-2', status: 'completed' }),
      buildReviewerRun({ sessionID: 'r-1', status: 'running' }),
      buildReviewerRun({ sessionID: 'r-2', status: 'timed-out' }),
      buildImplementorRun({ sessionID: 'i-3', workItemID: 'wi-3', status: 'failed' }),
      buildPlannerRun({ sessionID: 'p-old', status: 'cancelled' }),
    ],
  });

  it('counts requested and running runs of every role, planner included', () => {
    expect(countActiveRuns(state)).toBe(3);
  });

  it('counts one role when asked', () => {
    expect(countActiveRuns(state, 'planner')).toBe(1);
    expect(countActiveRuns(state, 'implementor')).toBe(1);
    expect(countActiveRuns(state, 'reviewer')).toBe(1);
  });

  it('is zero for an empty store', () => {
    expect(countActiveRuns(buildTestState())).toBe(0);
  });
});
