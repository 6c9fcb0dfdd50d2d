import type { Clock } from '../../../src/engine/engine-config.ts';

/** A clock tests move by hand: timers fire only inside advance(), in due order. */
export function createManualClock(start = 1_700_000_000_000): Clock & {
  advance(ms: number): void;
  pendingTimers(): number;
} {
  let now = start;
  let nextID = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextID++;
      timers.set(id, { at: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const target = now + ms;
      while (true) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= target)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = target;
    },
    pendingTimers: () => timers.size,
  };
}
