import { describe, expect, it } from 'vitest';
import { classifyLimitMessage, parseResetTime } from './classify-limit-message.ts';

// 2026-11-23 10:00 UTC (11:00 in Paris, 02:00 in Los Angeles).
const now = Date.UTC(2026, 10, 23, 10, 0);

describe('classifyLimitMessage', () => {
  it.each([
    ["You've hit your limit · resets 4:30pm (Asia/Calcutta)", Date.UTC(2026, 10, 23, 11, 0)],
    ["You've hit your session limit · resets 5:10pm (Europe/Paris)", Date.UTC(2026, 10, 23, 16, 10)],
    // Already past today in that zone: tomorrow's.
    ["You've hit your session limit · resets 1am (America/Los_Angeles)", Date.UTC(2026, 10, 24, 9, 0)],
    ["You've hit your weekly limit · resets Nov 30 at 7pm (UTC)", Date.UTC(2026, 10, 30, 19, 0)],
    [
      'Claude usage limit reached. Your limit will reset at 9am (America/Chicago).',
      Date.UTC(2026, 10, 23, 15, 0),
    ],
    ['Claude AI usage limit reached|1766502000', 1_766_502_000_000],
  ])('%s → a usage limit with its reset', (message, resetsAt) => {
    expect(
      classifyLimitMessage(`API Error: Request rejected (429) · ${message}`, { now, httpStatus: 429 }),
    ).toEqual({
      reason: 'usage-limit',
      resetsAt,
    });
  });

  it('a usage limit without a reset time', () => {
    expect(classifyLimitMessage("You've hit your limit", { now })).toEqual({
      reason: 'usage-limit',
      resetsAt: null,
    });
  });

  it('judges on the HTTP status when the runtime reports one', () => {
    expect(
      classifyLimitMessage('API Error: Request rejected (429) · slow down', { now, httpStatus: 429 }),
    ).toEqual({
      reason: 'rate-limit',
      resetsAt: null,
    });
    expect(classifyLimitMessage('API Error: 529 overloaded', { now, httpStatus: 529 })?.reason).toBe(
      'overloaded',
    );
    expect(classifyLimitMessage('API Error: 500 oops', { now, httpStatus: 500 })?.reason).toBe('overloaded');
    // A status the result says is not an API error: the text (mentioning 429) is not guessed from.
    expect(classifyLimitMessage('the test in 429-cases.ts failed', { now, httpStatus: null })).toBeNull();
    expect(classifyLimitMessage('Invalid request', { now, httpStatus: 400 })).toBeNull();
  });

  it('guesses from the text when the runtime reports no status (codex, agent CLIs)', () => {
    expect(
      classifyLimitMessage('stream error: 429 Too Many Requests; retry after 30 seconds', { now }),
    ).toEqual({
      reason: 'rate-limit',
      resetsAt: now + 30_000,
    });
    expect(classifyLimitMessage('the server is overloaded', { now })?.reason).toBe('overloaded');
    expect(classifyLimitMessage('patch did not apply', { now })).toBeNull();
  });
});

describe('parseResetTime', () => {
  it('reads 12-hour times without a zone in the machine’s zone, and nothing from text without a time', () => {
    const local = new Date(2026, 10, 23, 23, 30).getTime();
    expect(parseResetTime('resets 11:30pm', new Date(2026, 10, 23, 8, 0).getTime())).toBe(local);
    expect(parseResetTime('try again later', now)).toBeNull();
  });
});
