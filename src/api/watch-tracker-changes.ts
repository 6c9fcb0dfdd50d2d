import type { EngineStatePersistence, SqliteTracker } from '../storage/index.ts';
import type { EventHub } from './create-event-hub.ts';

export interface TrackerWatch {
  /** Compares once now (tests; the timer does the same). */
  check(): void;
  stop(): void;
}

/** How many of the newest runs are compared: every run that can still change is among them. */
const WATCHED_RUNS = 100;

/**
 * For `flotilla serve`, which has no engine to publish events: every `intervalMs` it compares the tracker's
 * items (status, title, priority, linked revision) and the newest runs (status) with what it saw last and
 * publishes `work-item.changed` / `run.changed` for each difference, so `/api/events` clients (the web
 * dashboard) see changes another process (`flotilla run`, the CLI) made. Two indexed reads per tick.
 */
export function watchTrackerChanges(
  tracker: SqliteTracker,
  history: EngineStatePersistence,
  events: EventHub,
  intervalMs = 1000,
): TrackerWatch {
  const seenItems = new Map<string, string>();
  const seenRuns = new Map<string, string>();
  const compare = (publish: boolean) => {
    for (const item of tracker.workItems.listWorkItems({ includeClosed: true })) {
      const print = [item.status, item.title, item.priority, item.linkedRevision].join('\u0000');
      const before = seenItems.get(item.id);
      seenItems.set(item.id, print);
      if (publish && before !== print) {
        events.publish('work-item.changed', { workItemID: item.id, status: item.status });
      }
    }
    for (const run of history.listRuns({ limit: WATCHED_RUNS })) {
      const before = seenRuns.get(run.sessionID);
      seenRuns.set(run.sessionID, run.status);
      if (publish && before !== run.status) {
        events.publish('run.changed', {
          sessionID: run.sessionID,
          role: run.role,
          status: run.status,
          workItemID: run.role === 'planner' ? null : run.workItemID,
        });
      }
    }
  };
  compare(false);
  const timer = setInterval(() => compare(true), intervalMs);
  timer.unref();
  return { check: () => compare(true), stop: () => clearInterval(timer) };
}
