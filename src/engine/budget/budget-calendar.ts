import type { BudgetPeriod } from '../../domain/index.ts';

export interface PeriodKeys {
  /** `YYYY-MM-DD` in the time zone. */
  day: string;
  /** `YYYY-MM` in the time zone. */
  month: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    // en-CA formats dates as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `timeZone` is an IANA time zone name this Node.js knows (`Europe/Paris`, `UTC`). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The day and month `at` (epoch ms) falls in, in `timeZone`. */
export function periodKeysOf(at: number, timeZone: string): PeriodKeys {
  const day = formatterFor(timeZone).format(new Date(at));
  return { day, month: day.slice(0, 7) };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The first minute (epoch ms) after `at` that lies in another day (or month) in `timeZone`: when a paused
 * budget resumes by itself. Found by stepping, so daylight-saving days of 23 or 25 hours come out right.
 */
export function nextPeriodStart(at: number, timeZone: string, period: BudgetPeriod): number {
  const keyOf = (time: number) => {
    const keys = periodKeysOf(time, timeZone);
    return period === 'day' ? keys.day : keys.month;
  };
  const current = keyOf(at);
  let low = Math.floor(at / MINUTE) * MINUTE;
  // Hours first (a month is at most 744 of them), then the minute inside the hour it changes in.
  let high = low + HOUR;
  while (keyOf(high) === current) {
    low = high;
    high += HOUR;
  }
  for (let minute = low + MINUTE; minute <= high; minute += MINUTE) {
    if (keyOf(minute) !== current) return minute;
  }
  return high;
}
