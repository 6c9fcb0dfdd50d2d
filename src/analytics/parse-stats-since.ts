import { startOfLocalDay } from './local-days.ts';

/** What `--since` accepts, for the error message and the help. */
export const STATS_SINCE_FORMATS =
  "Nd (today and the N-1 days before), Nh (the last N hours), YYYY-MM-DD (from that day's local midnight) or 'all'";

export type ParsedSince = { ok: true; since: number | null } | { ok: false; error: string };

/**
 * Parses `--since`: `7d` starts at local midnight six days ago (so the window is 7 calendar days, today
 * included), `12h` is twelve hours before `now`, `2026-11-01` that day's local midnight, `all` everything.
 * Anything else, a zero count, an impossible date or a date after today is an error naming what is accepted.
 */
export function parseStatsSince(text: string, now: number): ParsedSince {
  const value = text.trim();
  if (value === 'all') return { ok: true, since: null };
  const relative = /^(\d{1,5})([dh])$/.exec(value);
  if (relative) {
    const count = Number(relative[1]);
    if (count === 0) return fail(text, 'the count must be at least 1');
    return {
      ok: true,
      since: relative[2] === 'd' ? startOfLocalDay(now, 1 - count) : now - count * 3_600_000,
    };
  }
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (date) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const at = new Date(year, month - 1, day);
    if (at.getFullYear() !== year || at.getMonth() !== month - 1 || at.getDate() !== day)
      return fail(text, 'no such date');
    if (at.getTime() > now) return fail(text, 'the date is in the future');
    return { ok: true, since: at.getTime() };
  }
  return fail(text, undefined);
}

function fail(text: string, why: string | undefined): ParsedSince {
  return {
    ok: false,
    error: `--since '${text}'${why === undefined ? '' : ` (${why})`}: expected ${STATS_SINCE_FORMATS}`,
  };
}
