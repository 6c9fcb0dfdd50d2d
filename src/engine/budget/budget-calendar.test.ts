import { describe, expect, it } from 'vitest';
import { isKnownTimeZone, nextPeriodStart, periodKeysOf } from './budget-calendar.ts';
import { estimateRunCost } from './estimate-run-cost.ts';

describe('budget calendar', () => {
  it('names the day and month in the time zone', () => {
    const at = Date.parse('2026-11-30T23:30:00Z');
    expect(periodKeysOf(at, 'UTC')).toEqual({ day: '2026-11-30', month: '2026-11' });
    expect(periodKeysOf(at, 'Europe/Paris')).toEqual({ day: '2026-12-01', month: '2026-12' });
  });

  it('finds the next midnight and the next month, across a daylight-saving change', () => {
    expect(nextPeriodStart(Date.parse('2026-11-23T12:00:00Z'), 'UTC', 'day')).toBe(
      Date.parse('2026-11-24T00:00:00Z'),
    );
    // Paris leaves summer time on 2026-10-25: that day has 25 hours; midnight after is 23:00 UTC.
    expect(nextPeriodStart(Date.parse('2026-10-25T12:00:00Z'), 'Europe/Paris', 'day')).toBe(
      Date.parse('2026-10-25T23:00:00Z'),
    );
    expect(nextPeriodStart(Date.parse('2026-11-23T12:00:00Z'), 'UTC', 'month')).toBe(
      Date.parse('2026-12-01T00:00:00Z'),
    );
  });

  it('knows IANA names', () => {
    expect(isKnownTimeZone('Asia/Tokyo')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('estimateRunCost', () => {
  it('is the p90 of recent costs, never below the floor', () => {
    expect(estimateRunCost([], 0.05)).toBe(0.05);
    expect(estimateRunCost([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.05)).toBe(9);
    expect(estimateRunCost([0.01, 0.02], 0.05)).toBe(0.05);
  });
});
