import { describe, expect, it } from 'vitest';
import { buildImplementorRun, buildTestState } from '../../../../test/support/shared/builders/index.ts';
import { getAgentRun } from './get-agent-run.ts';

describe('getAgentRun', () => {
  it('returns the run with that session id, or null', () => {
    const run = buildImplementorRun({ sessionID: 's-1' });
    const state = buildTestState({ agentRuns: [run] });
    expect(getAgentRun(state, 's-1')).toBe(run);
    expect(getAgentRun(state, 's-2')).toBeNull();
  });
});
