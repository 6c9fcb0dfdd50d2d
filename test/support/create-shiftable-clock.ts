import type { Clock } from '../../src/engine/engine-config.ts';

export interface ShiftableClock extends Clock {
  /** Moves time forward by `ms` at once and fires every timer that is then due (no waiting). */
  advance(ms: number): void;
}

/**
 * Real time plus an offset the test can push forward: timers also run on real time (stall detection and
 * the like keep working), and `advance` fires the ones it makes due — a parking until "an hour from now"
 * ends without an hour of waiting.
 *
 * A timer is due at shifted time (`now() + ms` when it was set), and its real timeout is re-armed at every
 * `advance`. Why: a caller computes `ms` from a `now()` read a moment before it calls `setTimeout` (the
 * scheduler's `notBefore - now()`), so under load the timer is due a few milliseconds after the moment the
 * test advances to. Re-armed on shifted time, it then fires those milliseconds later instead of at the
 * original real deadline (an hour away).
 */
export function createShiftableClock(): ShiftableClock {
  let offset = 0;
  let nextID = 0;
  const timers = new Map<
    number,
    { due: number; callback: () => void; real: ReturnType<typeof setTimeout> }
  >();
  const now = () => Date.now() + offset;
  const fire = (id: number) => {
    const timer = timers.get(id);
    if (!timer) return;
    timers.delete(id);
    clearTimeout(timer.real);
    timer.callback();
  };
  const arm = (id: number, delayMs: number) => {
    const real = setTimeout(() => fire(id), Math.max(0, delayMs));
    real.unref?.();
    return real;
  };
  return {
    now,
    setTimeout(callback, ms) {
      const id = nextID++;
      timers.set(id, { due: now() + ms, callback, real: arm(id, ms) });
      return id;
    },
    clearTimeout(handle) {
      const timer = timers.get(handle as number);
      if (!timer) return;
      clearTimeout(timer.real);
      timers.delete(handle as number);
    },
    advance(ms) {
      offset += ms;
      const due = [...timers.entries()].filter(([, timer]) => timer.due <= now()).map(([id]) => id);
      for (const id of due) fire(id);
      for (const [id, timer] of timers) {
        clearTimeout(timer.real);
        timer.real = arm(id, timer.due - now());
      }
    },
  };
}
