import { describe, expect, it } from 'vitest';
import { sumUsage } from './sum-usage.ts';

describe('sumUsage', () => {
  it('adds every field of two rounds', () => {
    expect(
      sumUsage(
        { costUSD: 0.5, inputTokens: 100, outputTokens: 20, turns: 3 },
        { costUSD: 0.25, inputTokens: 50, outputTokens: 10, turns: 2 },
      ),
    ).toEqual({ costUSD: 0.75, inputTokens: 150, outputTokens: 30, turns: 5 });
  });

  it('keeps a known value when the other round did not report it, and null only when neither did', () => {
    const known = { costUSD: 1, inputTokens: null, outputTokens: 5, turns: null };
    expect(sumUsage(known, { costUSD: null, inputTokens: null, outputTokens: 2, turns: null })).toEqual({
      costUSD: 1,
      inputTokens: null,
      outputTokens: 7,
      turns: null,
    });
    expect(sumUsage(null, known)).toBe(known);
    expect(sumUsage(known, null)).toBe(known);
    expect(sumUsage(null, null)).toBeNull();
  });
});
