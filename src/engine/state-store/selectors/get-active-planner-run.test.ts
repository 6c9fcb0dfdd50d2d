import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildPlannerRun,
  buildTestState,
} from '../../../../test/support/shared/builders/index.ts';
import { getActivePlannerRun } from './get-active-planner-run.ts';

describe('getActivePlannerRun', () => {
  it.each(['requested', 'running'] as const)('finds a %s planner run', (status) => {
    const run = buildPlannerRun({ sessionID: 'p-2', status });
    const state = buildTestState({
      agentRuns: [buildPlannerRun({ sessionID: 'p-1', status: 'completed' }), run],
    });
    expect(getActivePlannerRun(state)).toBe(run);
  });

  it('returns null when only ended planner runs or other roles are active', () => {
    const state = buildTestState({
      agentRuns: [
        buildPlannerRun({ sessionID: 'p-1', status: 'failed' }),
        buildImplementorRun({ sessionID: 'i-1' }),
      ],
    });
    expect(getActivePlannerRun(state)).toBeNull();
  });
});
