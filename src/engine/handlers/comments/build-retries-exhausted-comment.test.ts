import { describe, expect, it } from 'vitest';
import { buildRetriesExhaustedComment } from './build-retries-exhausted-comment.ts';

describe('buildRetriesExhaustedComment', () => {
  it('states the count, the last failure and what to do', () => {
    expect(
      buildRetriesExhaustedComment({
        role: 'implementor',
        failure: {
          attempts: 3,
          lastReason: 'timeout',
          lastError: 'no output for 900 s',
          lastFailedAt: 1,
          lastSessionID: 'session-9',
        },
        maxAttempts: 3,
        logFilePath: '/repo/.flotilla/logs/session-9.jsonl',
      }),
    ).toBe(
      [
        'Flotilla: the implementor failed 3 times in a row (limit 3), so this item is now blocked and will not be retried automatically.',
        '',
        '- Last failure: timed out',
        '- Error: no output for 900 s',
        '- Session: session-9',
        '- Log: /repo/.flotilla/logs/session-9.jsonl',
        '',
        'Fix the cause, then dispatch the implementor again or move the item back to pending; either gives it a fresh set of attempts.',
      ].join('\n'),
    );
  });

  it('says "error", uses the singular and omits the log line when there is no log', () => {
    const body = buildRetriesExhaustedComment({
      role: 'reviewer',
      failure: {
        attempts: 1,
        lastReason: 'error',
        lastError: 'bad output',
        lastFailedAt: 1,
        lastSessionID: 's',
      },
      maxAttempts: 1,
      logFilePath: null,
    });
    expect(body).toContain('the reviewer failed 1 time in a row (limit 1)');
    expect(body).toContain('- Last failure: error\n');
    expect(body).not.toContain('Log:');
    expect(body).toContain('dispatch the reviewer again');
  });
});
