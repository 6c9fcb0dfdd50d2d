import type { WorkItem, WorkItemChanged, WorkItemStatus } from '../../../../src/domain/index.ts';

/** The event a poller emits when it sees `workItem` (first sighting when `oldStatus` is null). */
export function buildWorkItemChanged(
  workItem: WorkItem,
  oldStatus: WorkItemStatus | null = null,
): WorkItemChanged {
  return {
    type: 'workItemChanged',
    workItemID: workItem.id,
    workItem,
    oldStatus,
    newStatus: workItem.status,
  };
}
