import type { LimitReason } from '../../domain/index.ts';

export interface LimitClassification {
  reason: LimitReason;
  /** Epoch milliseconds when the provider said the limit resets; null when it did not say. */
  resetsAt: number | null;
}

/**
 * What subscription CLIs print when the plan's usage limit is reached, as users reported them:
 * "You've hit your limit · resets 3:30am (Asia/Calcutta)", "You've hit your session limit · resets 5:10pm
 * (Europe/Paris)", "You've hit your weekly limit · resets Sep 15 at 7pm", "Claude usage limit reached. Your
 * limit will reset at 9am (America/Chicago).", "Claude AI usage limit reached|1766502000" (epoch seconds),
 * codex's "You've hit your usage limit … try again at …".
 */
const USAGE_LIMIT =
  /(you['’]ve hit your (?:[\w-]+ )?limit|usage limit (?:reached|has been reached)|usage_limit_reached|limits? will reset at)/i;
const RATE_LIMIT = /\b429\b|rate[ _-]?limit|too many requests/i;
const OVERLOADED =
  /\b529\b|overloaded|\b50[0234]\b.*(?:error|server)|internal server error|service unavailable/i;

/**
 * Classifies a runtime's error text (and the HTTP status, when the runtime reports it) as a provider limit,
 * or null for anything else (which counts as a failed attempt). `now` anchors reset times given as a wall
 * clock ("resets 3pm"): the next such time after it.
 */
export function classifyLimitMessage(
  message: string,
  options: { now: number; httpStatus?: number | null | undefined },
): LimitClassification | null {
  if (USAGE_LIMIT.test(message)) {
    return { reason: 'usage-limit', resetsAt: parseResetTime(message, options.now) };
  }
  // A runtime that reports the HTTP status (Claude: `api_error_status`, null when no API error ended the
  // session) is judged on it alone; the text is guessed from only when the status is unknown (undefined).
  if (options.httpStatus === null) return null;
  const status = options.httpStatus ?? null;
  if (status === 429 || (status === null && RATE_LIMIT.test(message))) {
    return { reason: 'rate-limit', resetsAt: parseResetTime(message, options.now) };
  }
  if ((status !== null && status >= 500 && status <= 599) || (status === null && OVERLOADED.test(message))) {
    return { reason: 'overloaded', resetsAt: null };
  }
  return null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The reset time in a limit message, or null: `|<epoch seconds>`, "retry after N seconds", or a wall-clock
 * time — "resets 5:10pm (Europe/Paris)", "reset at 9am (America/Chicago)", "resets Sep 15 at 7pm", "try
 * again at 3:05 PM" — in the named IANA time zone (else the machine's), the next such time after `now`.
 */
export function parseResetTime(message: string, now: number): number | null {
  const epoch = /\|(\d{10})\b/.exec(message);
  if (epoch) return Number(epoch[1]) * 1000;
  const after = /(?:retry|try again) (?:after|in) (\d+) ?(s|sec|seconds?|m|min|minutes?)\b/i.exec(message);
  if (after) return now + Number(after[1]) * (after[2]?.toLowerCase().startsWith('m') ? 60_000 : 1000);
  const wall =
    /(?:resets?|reset at|resets at|try again at|available again at)\s+(?:at\s+)?(?:([A-Z][a-z]{2})[a-z]* (\d{1,2})(?:,? \d{4})? at )?(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?(?:\s*\(([A-Za-z_]+(?:\/[A-Za-z_+-]+)*)\))?/i.exec(
      message,
    );
  if (!wall) return null;
  const [, monthName, dayText, hourText, minuteText, meridiem, zone] = wall;
  let hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (meridiem !== undefined) {
    const pm = meridiem.toLowerCase().startsWith('p');
    if (hour === 12) hour = pm ? 12 : 0;
    else if (pm) hour += 12;
  }
  if (hour > 23 || minute > 59) return null;
  const timeZone = zone !== undefined && isTimeZone(zone) ? zone : undefined;
  const month = monthName === undefined ? -1 : MONTHS.indexOf(monthName.toLowerCase());
  const today = wallClockParts(now, timeZone);
  if (month >= 0) {
    let at = zonedTime(today.year, month, Number(dayText), hour, minute, timeZone);
    if (at <= now) at = zonedTime(today.year + 1, month, Number(dayText), hour, minute, timeZone);
    return at;
  }
  let at = zonedTime(today.year, today.month, today.day, hour, minute, timeZone);
  // Past already today (in that zone): it means tomorrow's.
  if (at <= now) at = zonedTime(today.year, today.month, today.day + 1, hour, minute, timeZone);
  return at;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function wallClockParts(at: number, timeZone: string | undefined) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month') - 1,
    day: get('day'),
    hour: get('hour'),
    minute: get('minute'),
    second: get('second'),
  };
}

/** Epoch ms of a wall-clock time in `timeZone` (the machine's when undefined). */
function zonedTime(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  timeZone: string | undefined,
): number {
  const asUtc = Date.UTC(year, month, day, hour, minute);
  // The zone's offset at that moment: format the UTC guess there and see how far off it reads.
  const seen = wallClockParts(asUtc, timeZone);
  const seenAsUtc = Date.UTC(seen.year, seen.month, seen.day, seen.hour, seen.minute, seen.second);
  return asUtc - (seenAsUtc - asUtc);
}
