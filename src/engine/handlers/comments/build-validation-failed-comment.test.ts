import { describe, expect, it } from 'vitest';
import { buildValidationFailedComment } from './build-validation-failed-comment.ts';

describe('buildValidationFailedComment', () => {
  it('holds the last errors in a fence, the session and the log, and says how to continue', () => {
    const comment = buildValidationFailedComment({
      sessionID: 'abc-123',
      error: 'validation failed after 3 fix rounds\n`npm test` failed (exit code 1):\nFAIL greet.test.ts',
      logFilePath: '/repo/.flotilla/logs/sessions/x.log',
    });
    expect(comment).toBe(
      [
        'Flotilla: the implementor reported its work complete, but the validation commands still fail after its last fix round, so this item needs refinement and will not be retried automatically.',
        '',
        '- Session: abc-123',
        '- Log: /repo/.flotilla/logs/sessions/x.log',
        '',
        'Last errors:',
        '',
        '```text',
        'validation failed after 3 fix rounds\n`npm test` failed (exit code 1):\nFAIL greet.test.ts',
        '```',
        '',
        'Refine the item (or fix the cause), then dispatch the implementor again or move the item back to pending.',
      ].join('\n'),
    );
  });

  it('uses a fence the errors cannot close, and keeps only the last 16 KB of huge errors', () => {
    const comment = buildValidationFailedComment({
      sessionID: 's',
      error: `${'x'.repeat(20_000)}\n\`\`\`\`\nEND`,
      logFilePath: null,
    });
    expect(comment).toContain('`````text\n… (truncated: the last 16384 characters)\n');
    expect(comment).toContain('END\n`````');
    expect(comment).not.toContain('- Log:');
    expect(comment.length).toBeLessThan(17_000);
  });
});
