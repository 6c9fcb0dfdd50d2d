/** How long a runtime's availability answer is reused: short, so a fix (a key set, a binary installed) shows soon. */
export const AVAILABILITY_TTL_MS = 30_000;

/**
 * Wraps a check so it runs at most once per `ttlMs`: dispatching many runs in a burst looks things up once
 * (no storm of file-system lookups or processes), and a change is still seen within `ttlMs`.
 */
export function createCachedCheck<T>(
  check: () => T,
  options: { ttlMs?: number; now?: () => number } = {},
): () => T {
  const ttlMs = options.ttlMs ?? AVAILABILITY_TTL_MS;
  const now = options.now ?? Date.now;
  let cached: { value: T; at: number } | null = null;
  return () => {
    const at = now();
    if (cached === null || at - cached.at >= ttlMs) cached = { value: check(), at };
    return cached.value;
  };
}
