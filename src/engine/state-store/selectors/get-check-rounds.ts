import type { EngineState } from '../engine-state.ts';

/** Failed checks seen on the work item's revision since it was last approved or reset by a human (0 if none). */
export function getCheckRounds(state: EngineState, workItemID: string): number {
  return state.checkRounds[workItemID] ?? 0;
}
