import { describe, expect, it } from 'vitest';
import { computeRetryDelay } from './compute-retry-delay.ts';

describe('computeRetryDelay', () => {
  it('is zero before any failure', () => {
    expect(computeRetryDelay(0, 30, 900)).toBe(0);
  });

  it('doubles with each consecutive failure', () => {
    expect([1, 2, 3, 4].map((n) => computeRetryDelay(n, 30, 900))).toEqual([
      30_000, 60_000, 120_000, 240_000,
    ]);
  });

  it('never exceeds the cap', () => {
    expect(computeRetryDelay(10, 30, 900)).toBe(900_000);
  });
});
