import { useEffect, useState } from 'react';

/** `now()` re-read every `intervalMs`: each tick is a full render, so callers tick only as often as needed. */
export function useClock(now: () => number, intervalMs: number): number {
  const [clock, setClock] = useState(now());
  useEffect(() => {
    const timer = setInterval(() => setClock(now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, now]);
  return clock;
}
