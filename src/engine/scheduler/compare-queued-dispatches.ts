import type { QueuedDispatch } from '../state-store/engine-state.ts';

export interface RankedDispatch extends QueuedDispatch {
  /** Creation time of the work item (or the queue time for the planner): older work goes first. */
  ageKey: number;
}

/** Queue order: higher priority first, then older work, then earlier queued. */
export function compareQueuedDispatches(a: RankedDispatch, b: RankedDispatch): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.ageKey !== b.ageKey) return a.ageKey - b.ageKey;
  return a.queuedAt - b.queuedAt;
}
