import { describe, expect, it } from 'vitest';
import { buildQuotaSummary } from './build-quota-summary.ts';

const NOW = Date.parse('2026-11-23T14:00:00Z');
const reset = new Date('2026-11-23T14:30:00Z');

describe('buildQuotaSummary', () => {
  it('shows the budget left and when it resets; low under a fifth', () => {
    expect(
      buildQuotaSummary({ core: { limit: 5000, remaining: 4987, resetAt: reset }, pausedUntil: null }, NOW),
    ).toEqual({
      text: 'GitHub 4987/5000 · resets 14:30 UTC',
      tone: 'normal',
    });
    expect(
      buildQuotaSummary({ core: { limit: 5000, remaining: 999, resetAt: reset }, pausedUntil: null }, NOW)
        ?.tone,
    ).toBe('low');
  });

  it('says paused while every request waits, and nothing before the budget is known or without a tracker quota', () => {
    const paused = { core: { limit: 5000, remaining: 0, resetAt: reset }, pausedUntil: reset };
    expect(buildQuotaSummary(paused, NOW)).toEqual({ text: 'GitHub paused until 14:30 UTC', tone: 'paused' });
    expect(buildQuotaSummary({ ...paused, pausedUntil: new Date(NOW - 1000) }, NOW)?.tone).toBe('low');
    expect(buildQuotaSummary({ core: null, pausedUntil: null }, NOW)).toBeNull();
    expect(buildQuotaSummary(null, NOW)).toBeNull();
  });
});
