import type { EngineState } from '../engine-state.ts';

/** needs-changes verdicts for the work item since it was last approved or reset by a human (0 if none). */
export function getReviewRounds(state: EngineState, workItemID: string): number {
  return state.reviewRounds[workItemID] ?? 0;
}
