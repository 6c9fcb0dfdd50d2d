import type { Clock } from '../../src/engine/engine-config.ts';

export interface ShiftableClock extends Clock {
  /** Moves time forward by `ms` at once and fires every timer that is then due (no waiting). */
  advance(ms: number): void;
}

/**
 * Real time plus an offset the test can push forward: timers also run on real time (stall detection and
 * the like keep working), and `advance` fires the ones it makes due — a parking until "an hour from now"
 * ends without an hour of waiting.
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
  return {
    now,
    setTimeout(callback, ms) {
      const id = nextID++;
      const real = setTimeout(() => fire(id), ms);
      real.unref?.();
      timers.set(id, { due: now() + ms, callback, real });
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
    },
  };
}
