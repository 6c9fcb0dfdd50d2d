import { useEffect, useState } from 'react';

/**
 * Re-renders when `subscribe` reports a change, at most once per `intervalMs`: the engine applies
 * thousands of events a second under load, and a terminal gains nothing from more than ~20 frames.
 * Returns a counter that changes with each accepted notification.
 */
export function useThrottledSubscription(
  subscribe: (listener: () => void) => () => void,
  intervalMs: number,
): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let timer: NodeJS.Timeout | null = null;
    let last = 0;
    const unsubscribe = subscribe(() => {
      if (timer !== null) return;
      const wait = Math.max(0, last + intervalMs - Date.now());
      timer = setTimeout(() => {
        timer = null;
        last = Date.now();
        setTick((value) => value + 1);
      }, wait);
    });
    return () => {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
    };
  }, [subscribe, intervalMs]);
  return tick;
}
