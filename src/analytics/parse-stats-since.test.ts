import { describe, expect, it } from 'vitest';
import { parseStatsSince } from './parse-stats-since.ts';

const NOW = new Date(2026, 10, 22, 18, 30).getTime();

describe('parseStatsSince', () => {
  it('reads N days as calendar days ending today, from local midnight', () => {
    expect(parseStatsSince('7d', NOW)).toEqual({ ok: true, since: new Date(2026, 10, 16).getTime() });
    expect(parseStatsSince('1d', NOW)).toEqual({ ok: true, since: new Date(2026, 10, 22).getTime() });
  });

  it('reads hours, a local date and all', () => {
    expect(parseStatsSince('12h', NOW)).toEqual({ ok: true, since: NOW - 12 * 3_600_000 });
    expect(parseStatsSince('2026-11-01', NOW)).toEqual({ ok: true, since: new Date(2026, 10, 1).getTime() });
    expect(parseStatsSince(' all ', NOW)).toEqual({ ok: true, since: null });
  });

  it('refuses anything else, saying what it accepts', () => {
    for (const [text, why] of [
      ['7', ''],
      ['7 days', ''],
      ['0d', ' (the count must be at least 1)'],
      ['2026-02-30', ' (no such date)'],
      ['2026-12-01', ' (the date is in the future)'],
      ['', ''],
      ['-3d', ''],
    ]) {
      const parsed = parseStatsSince(text ?? '', NOW);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error).toBe(
          `--since '${text}'${why}: expected Nd (today and the N-1 days before), Nh (the last N hours), YYYY-MM-DD (from that day's local midnight) or 'all'`,
        );
      }
    }
  });
});
