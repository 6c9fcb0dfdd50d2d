import { describe, expect, it } from 'vitest';
import { buildRunCancelledComment } from './build-run-cancelled-comment.ts';

describe('buildRunCancelledComment', () => {
  it('names the role and session and says how to continue', () => {
    expect(buildRunCancelledComment('reviewer', 'abc-123')).toBe(
      [
        'Flotilla: the reviewer run (session abc-123) was cancelled by a user, so this item is now blocked instead of being retried.',
        '',
        'Dispatch the reviewer again or move the item back to pending when it should continue.',
      ].join('\n'),
    );
  });
});
