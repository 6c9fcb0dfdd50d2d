import { describe, expect, it } from 'vitest';
import { readRetryAfterMs } from './read-retry-after.ts';

describe('readRetryAfterMs', () => {
  it('reads a wait longer than any backoff of its attempt as the server retry-after', () => {
    // Measured: retry-after 20 s → the CLI waited 24 244 ms before its first retry.
    expect(readRetryAfterMs({ attempt: 1, retry_delay_ms: 24_244, error_status: 429 })).toBe(24_244);
    expect(readRetryAfterMs({ attempt: 1, retry_delay_ms: 1_110, error_status: 429 })).toBe(1_110);
  });

  it('does not mistake the CLI backoff (no retry-after) for one', () => {
    // Measured without retry-after: 526, 1087, 2097, 4522 ms for attempts 1–4.
    for (const [attempt, delay] of [
      [1, 526],
      [2, 1087],
      [3, 2097],
      [4, 4522],
      [10, 39_000],
    ] as const) {
      expect(readRetryAfterMs({ attempt, retry_delay_ms: delay, error_status: 429 })).toBeNull();
    }
  });

  it('ignores retries of anything but a 429', () => {
    expect(readRetryAfterMs({ attempt: 1, retry_delay_ms: 30_000, error_status: 529 })).toBeNull();
    expect(readRetryAfterMs({ attempt: 1, retry_delay_ms: 30_000, error_status: null })).toBeNull();
  });
});
