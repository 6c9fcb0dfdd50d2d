import { type DependencyWaitFor, isDependencyTerminal, type WorkItem } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/**
 * True when every blocker is in the store and approved or closed — closed only, with `waitFor: 'merged'` —
 * (vacuously true with no blockers). A blocker
 * absent from the store is unresolved: the poller fetches unknown blockers, closed ones included, so absence
 * means "not known yet", never "done".
 */
export function isWorkItemUnblocked(
  state: EngineState,
  workItem: Pick<WorkItem, 'blockedBy'>,
  waitFor: DependencyWaitFor = 'approved',
): boolean {
  return workItem.blockedBy.every((blockerID) => {
    const blocker = state.workItems[blockerID];
    return blocker !== undefined && isDependencyTerminal(blocker.status, waitFor);
  });
}
