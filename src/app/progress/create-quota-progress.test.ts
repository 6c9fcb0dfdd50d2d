import { expect, it } from 'vitest';
import { createQuotaProgress } from './create-quota-progress.ts';

const NOW = Date.parse('2026-11-23T14:00:00Z');
const reset = new Date('2026-11-23T14:30:00Z');
const budget = (remaining: number, pausedUntil: Date | null = null) => ({
  core: { limit: 5000, remaining, resetAt: reset },
  pausedUntil,
});

it('announces the budget once, a pause once, and a low budget once per window', () => {
  const progress = createQuotaProgress();
  expect(progress({ core: null, pausedUntil: null }, NOW)).toBeNull();
  expect(progress(budget(4990), NOW)).toBe('GitHub rate limit: 4990/5000 requests left, resets 14:30:00 UTC');
  expect(progress(budget(4980), NOW)).toBeNull();
  expect(progress(budget(900), NOW)).toBe(
    'GitHub rate limit low: 900/5000 requests left, resets 14:30:00 UTC; polling slows down',
  );
  expect(progress(budget(800), NOW)).toBeNull();
  const pause = new Date(NOW + 60_000);
  expect(progress(budget(0, pause), NOW)).toBe(
    'GitHub rate limit: requests paused until 14:01:00 UTC (0/5000 left); work resumes then',
  );
  expect(progress(budget(0, pause), NOW + 1000)).toBeNull();
  // The pause is over: nothing more to say.
  expect(progress(budget(0, pause), NOW + 61_000)).toBeNull();
});
