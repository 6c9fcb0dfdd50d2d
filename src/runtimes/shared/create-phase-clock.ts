import type { PhaseListener } from '../../engine/runtime-contract/index.ts';

/** Times the phases of one run for RuntimeAdapterConfig.onPhase; free when no listener is given. */
export interface PhaseClock {
  /** Runs the step and reports its duration under `phase` (also when it throws). */
  time<T>(phase: string, step: () => Promise<T>): Promise<T>;
  /** Reports the time since the previous phase ended (or the clock was made) under `phase`. */
  lap(phase: string): void;
}

const UNTIMED: PhaseClock = {
  time: (_phase, step) => step(),
  lap: () => {},
};

export function createPhaseClock(sessionID: string, listener: PhaseListener | undefined): PhaseClock {
  if (listener === undefined) return UNTIMED;
  let lapStarted = performance.now();
  const report = (phase: string, started: number) => {
    const now = performance.now();
    // A listener's problem must not fail the run it is timing.
    try {
      listener({ sessionID, phase, ms: now - started });
    } catch {}
    return now;
  };
  return {
    async time(phase, step) {
      const started = performance.now();
      try {
        return await step();
      } finally {
        lapStarted = report(phase, started);
      }
    },
    lap(phase) {
      lapStarted = report(phase, lapStarted);
    },
  };
}
