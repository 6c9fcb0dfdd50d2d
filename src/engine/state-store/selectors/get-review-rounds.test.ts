import { describe, expect, it } from 'vitest';
import { buildTestState } from '../../../../test/support/shared/builders/index.ts';
import { getReviewRounds } from './get-review-rounds.ts';

describe('getReviewRounds', () => {
  it('returns the count, or 0 when none was recorded', () => {
    const state = buildTestState({ reviewRounds: { 'wi-1': 2 } });
    expect(getReviewRounds(state, 'wi-1')).toBe(2);
    expect(getReviewRounds(state, 'wi-2')).toBe(0);
  });
});
