import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildPlannerRun,
  buildReviewerRun,
  buildTestState,
} from '../../../../test/support/shared/builders/index.ts';
import { isAgentRunningForWorkItem } from './is-agent-running-for-work-item.ts';

describe('isAgentRunningForWorkItem', () => {
  it('is true with an active implementor or reviewer run for the item', () => {
    expect(
      isAgentRunningForWorkItem(
        buildTestState({ agentRuns: [buildImplementorRun({ workItemID: 'wi-1' })] }),
        'wi-1',
      ),
    ).toBe(true);
    expect(
      isAgentRunningForWorkItem(
        buildTestState({ agentRuns: [buildReviewerRun({ workItemID: 'wi-1', status: 'requested' })] }),
        'wi-1',
      ),
    ).toBe(true);
  });

  it('is false with only ended runs, runs for other items, or a planner', () => {
    const state = buildTestState({
      agentRuns: [
        buildImplementorRun({ sessionID: 'a', workItemID: 'wi-1', status: 'cancelled' }),
        buildReviewerRun({ sessionID: 'b', workItemID: 'wi-2' }),
        buildPlannerRun({ sessionID: 'c' }),
      ],
    });
    expect(isAgentRunningForWorkItem(state, 'wi-1')).toBe(false);
  });
});
