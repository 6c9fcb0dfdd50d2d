/**
 * The CLI's own 429 retries, as its `system`/`api_retry` messages report them. The CLI waits
 * `max(retry-after × (1 + up to 25 % jitter), backoff)` before each retry, where the backoff is 500 ms
 * doubling per attempt (capped at 32 s) with the same jitter; the message carries only that wait, not the
 * header. A wait above the backoff's reach for its attempt can only come from the server's `retry-after`.
 */
export interface ApiRetryReport {
  attempt: number;
  retry_delay_ms: number;
  error_status: number | null;
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 32_000;
const JITTER = 0.25;

/**
 * How long the server asked the CLI to wait (its `retry-after`, up to a quarter longer), or null when the
 * wait may be the CLI's own backoff (no retry-after, or one shorter than the backoff) or was not for a 429.
 */
export function readRetryAfterMs(report: ApiRetryReport): number | null {
  if (report.error_status !== 429) return null;
  const attempt = Math.max(1, report.attempt);
  const longestBackoff = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1)) * (1 + JITTER);
  return report.retry_delay_ms > longestBackoff ? report.retry_delay_ms : null;
}
