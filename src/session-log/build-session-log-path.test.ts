import { describe, expect, it } from 'vitest';
import { buildSessionLogPath } from './build-session-log-path.ts';

describe('buildSessionLogPath', () => {
  it('joins timestamp, role, work item and session id prefix', () => {
    expect(
      buildSessionLogPath({
        logsDir: '/logs',
        startedAt: 1700000000000,
        role: 'reviewer',
        sessionID: '0123456789',
        workItemID: '42',
      }),
    ).toBe('/logs/1700000000000-reviewer-42-01234567.log');
  });

  it('keeps provider ids from adding path separators', () => {
    expect(
      buildSessionLogPath({
        logsDir: '/logs',
        startedAt: 1,
        role: 'implementor',
        sessionID: 'abc',
        workItemID: '../../etc/x y',
      }),
    ).toBe('/logs/1-implementor-.._.._etc_x_y-abc.log');
  });
});
