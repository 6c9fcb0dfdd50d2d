import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildPlannerRun,
  buildReviewerRun,
  buildTestState,
} from '../../../../test/support/shared/builders/index.ts';
import { getActiveAgentRun } from './get-active-agent-run.ts';

describe('getActiveAgentRun', () => {
  it.each(['requested', 'running'] as const)('finds a %s implementor run for the item', (status) => {
    const run = buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-1', status });
    expect(getActiveAgentRun(buildTestState({ agentRuns: [run] }), 'wi-1')).toBe(run);
  });

  it('finds an active reviewer run for the item', () => {
    const run = buildReviewerRun({ sessionID: 's-1', workItemID: 'wi-1' });
    expect(getActiveAgentRun(buildTestState({ agentRuns: [run] }), 'wi-1')).toBe(run);
  });

  it.each(['completed', 'failed', 'timed-out', 'cancelled'] as const)('ignores a %s run', (status) => {
    const state = buildTestState({ agentRuns: [buildImplementorRun({ workItemID: 'wi-1', status })] });
    expect(getActiveAgentRun(state, 'wi-1')).toBeNull();
  });

  it("ignores other items' runs and planner runs", () => {
    const state = buildTestState({
      agentRuns: [
        buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-2' }),
        buildPlannerRun({ sessionID: 'p' }),
      ],
    });
    expect(getActiveAgentRun(state, 'wi-1')).toBeNull();
  });

  it('filters by role when asked', () => {
    const implementor = buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-1' });
    const state = buildTestState({ agentRuns: [implementor] });
    expect(getActiveAgentRun(state, 'wi-1', 'reviewer')).toBeNull();
    expect(getActiveAgentRun(state, 'wi-1', 'implementor')).toBe(implementor);
  });

  it('skips ended runs to find the active one', () => {
    const active = buildReviewerRun({ sessionID: 's-2', workItemID: 'wi-1' });
    const state = buildTestState({
      agentRuns: [buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-1', status: 'completed' }), active],
    });
    expect(getActiveAgentRun(state, 'wi-1')).toBe(active);
  });
});
