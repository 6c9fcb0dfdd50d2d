/** The tracker's clock: epoch milliseconds, injected so tests control `createdAt`. */
export type TrackerClock = () => number;

export function isoAt(now: TrackerClock): string {
  return new Date(now()).toISOString();
}
