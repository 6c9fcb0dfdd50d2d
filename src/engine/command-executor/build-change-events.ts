import type { EngineEvent, Revision, WorkItem, WorkItemStatus } from '../../domain/index.ts';

/** The event a write to a work item returns: what the work item poller would report next. */
export function buildWorkItemChanged(item: WorkItem, oldStatus: WorkItemStatus | null): EngineEvent {
  return { type: 'workItemChanged', workItemID: item.id, workItem: item, oldStatus, newStatus: item.status };
}

/** The event a write to a revision returns; `previous` is the store's copy (undefined for a new one). */
export function buildRevisionChanged(revision: Revision, previous: Revision | undefined): EngineEvent {
  return {
    type: 'revisionChanged',
    revisionID: revision.id,
    workItemID: revision.workItemID,
    revision,
    oldPipelineStatus: previous?.pipeline?.status ?? null,
    newPipelineStatus: revision.pipeline?.status ?? null,
  };
}
