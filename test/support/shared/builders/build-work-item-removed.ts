import type { WorkItemChanged, WorkItemStatus } from '../../../../src/domain/index.ts';

/** The event a poller emits when an item no longer exists at all. */
export function buildWorkItemRemoved(
  workItemID: string,
  oldStatus: WorkItemStatus | null = null,
): WorkItemChanged {
  return { type: 'workItemChanged', workItemID, workItem: null, oldStatus, newStatus: null };
}
