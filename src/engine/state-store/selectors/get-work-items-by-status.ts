import type { WorkItem, WorkItemStatus } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/** Work items currently in `status`, in store order. */
export function getWorkItemsByStatus(state: EngineState, status: WorkItemStatus): WorkItem[] {
  return Object.values(state.workItems).filter((workItem) => workItem.status === status);
}
