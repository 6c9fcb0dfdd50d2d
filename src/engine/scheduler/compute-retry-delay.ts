/**
 * Exponential backoff for the n-th consecutive failure (n ≥ 1): base × 2^(n-1), capped. Seconds in,
 * milliseconds out.
 */
export function computeRetryDelay(attempts: number, baseSeconds: number, maxSeconds: number): number {
  if (attempts <= 0) return 0;
  const seconds = Math.min(baseSeconds * 2 ** (attempts - 1), maxSeconds);
  return Math.max(0, seconds) * 1000;
}
