import type { EngineEvent, WaitingSession } from '../domain/index.ts';
import type { Clock } from './engine-config.ts';
import type { EngineState } from './state-store/engine-state.ts';

/** setTimeout's longest delay (about 24.8 days); a longer wait is re-armed when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One timer per waiting item, kept in step with the state (also the waits restored after a restart): when
 * `questionTimeout` passes after the questions were asked, `questionsTimedOut` is emitted.
 */
export function createQuestionTimers(options: {
  clock: Clock;
  timeoutMs: number;
  emit: (event: EngineEvent) => void;
}) {
  const { clock } = options;
  const timers = new Map<string, { sessionID: string; handle: unknown }>();

  function arm(waiting: WaitingSession): void {
    const dueAt = waiting.askedAt + options.timeoutMs;
    const delay = Math.max(0, dueAt - clock.now());
    const handle = clock.setTimeout(
      () => {
        if (timers.get(waiting.workItemID)?.handle !== handle) return;
        if (clock.now() < dueAt) {
          arm(waiting);
          return;
        }
        // Stays in the map (fired) until the record goes, so a state change meanwhile does not re-arm it.
        timers.set(waiting.workItemID, { sessionID: waiting.sessionID, handle: null });
        options.emit({
          type: 'questionsTimedOut',
          workItemID: waiting.workItemID,
          sessionID: waiting.sessionID,
          at: clock.now(),
        });
      },
      Math.min(delay, MAX_TIMER_MS),
    );
    timers.set(waiting.workItemID, { sessionID: waiting.sessionID, handle });
  }

  return {
    sync(state: EngineState): void {
      for (const [workItemID, timer] of timers) {
        const waiting = state.waitingForInput[workItemID];
        if (waiting === undefined || waiting.sessionID !== timer.sessionID || waiting.answers !== null) {
          if (timer.handle !== null) clock.clearTimeout(timer.handle);
          timers.delete(workItemID);
        }
      }
      for (const waiting of Object.values(state.waitingForInput)) {
        if (waiting.answers === null && !timers.has(waiting.workItemID)) arm(waiting);
      }
    },
    stop(): void {
      for (const timer of timers.values()) if (timer.handle !== null) clock.clearTimeout(timer.handle);
      timers.clear();
    },
  };
}
