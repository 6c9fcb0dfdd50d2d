import { describe, expect, it } from 'vitest';
import { buildTestState } from '../../../../test/support/shared/builders/index.ts';
import { getCheckRounds } from './get-check-rounds.ts';

describe('getCheckRounds', () => {
  it('returns the count, or 0 when none was recorded', () => {
    const state = buildTestState({ checkRounds: { 'wi-1': 2 } });
    expect(getCheckRounds(state, 'wi-1')).toBe(2);
    expect(getCheckRounds(state, 'wi-2')).toBe(0);
  });
});
