import type { WorkItem, WorkItemStatus } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';

/**
 * Whether a run is an automatic refinement (issue #29, handle-auto-refinement.ts): a `refine` run on an
 * item that does not ask for one by its `task:refine` label. Its item waits where it was (needs-refinement,
 * or a `task:refinement` item's pending) while it runs, so the handlers must not take those statuses for a
 * human having taken the item away.
 */
export function isAutoRefineRun(state: EngineState, sessionID: string, workItemID: string): boolean {
  const run = state.agentRuns[sessionID];
  if (run?.role !== 'implementor' || run.mode !== 'refine') return false;
  return state.workItems[workItemID]?.mode !== 'refine';
}

/** Where an item waits while its automatic refinement runs (anywhere else, a human moved it). */
export function isAutoRefineWaitStatus(item: Pick<WorkItem, 'kind'>, status: WorkItemStatus): boolean {
  return status === 'needs-refinement' || (item.kind === 'refinement' && status === 'pending');
}
