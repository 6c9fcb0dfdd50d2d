import { isDeepStrictEqual } from 'node:util';

/**
 * Remembers what a poller last reported per key, so a value still waiting in the event queue is not
 * reported again on the next poll (pollers diff against the store, which lags the queue).
 */
export interface EmissionMemory<T> {
  /** True when `observed` differs from the store and was not already reported. Records it when true. */
  shouldReport(key: string, observed: T | null, stored: T | null): boolean;
  forget(key: string): void;
}

export function createEmissionMemory<T>(): EmissionMemory<T> {
  const reported = new Map<string, T | null>();
  return {
    shouldReport(key, observed, stored) {
      if (isDeepStrictEqual(observed, stored)) {
        // The store caught up: a later return to an earlier value must be reported again.
        reported.delete(key);
        return false;
      }
      if (reported.has(key) && isDeepStrictEqual(reported.get(key), observed)) return false;
      reported.set(key, observed);
      return true;
    },
    forget(key) {
      reported.delete(key);
    },
  };
}
