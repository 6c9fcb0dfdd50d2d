import type { WorkItem } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/** Work items whose `blockedBy` names `workItemID`, in store order. */
export function getWorkItemsDependingOn(state: EngineState, workItemID: string): WorkItem[] {
  return Object.values(state.workItems).filter((workItem) => workItem.blockedBy.includes(workItemID));
}
