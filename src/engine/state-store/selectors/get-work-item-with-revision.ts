import type { Revision, WorkItem } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

export interface WorkItemWithRevision {
  workItem: WorkItem;
  revision: Revision;
}

/** The work item and its linked revision (through `linkedRevision`); null when either is not in the store. */
export function getWorkItemWithRevision(state: EngineState, workItemID: string): WorkItemWithRevision | null {
  const workItem = state.workItems[workItemID];
  if (workItem === undefined || workItem.linkedRevision === null) return null;
  const revision = state.revisions[workItem.linkedRevision];
  if (revision === undefined) return null;
  return { workItem, revision };
}
