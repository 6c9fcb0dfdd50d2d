import type { EngineEvent } from '../../domain/index.ts';
import type { EngineState } from './engine-state.ts';

/**
 * The merge queue's part of the state (issue #30 §5): a `conflict` step records the conflict for the item's
 * next implementor prompt; any other step of that item, and the item approved again, closed or gone, drops
 * it. Returns the same state when nothing changes.
 */
export function applyMergeQueueUpdate(state: EngineState, event: EngineEvent): EngineState {
  switch (event.type) {
    case 'mergeQueueStepped':
      if (event.outcome === 'conflict' && event.conflict !== undefined) {
        return { ...state, mergeConflicts: { ...state.mergeConflicts, [event.workItemID]: event.conflict } };
      }
      return without(state, event.workItemID);
    case 'workItemChanged':
      if (event.newStatus === 'approved' || event.newStatus === 'closed' || event.newStatus === null) {
        return without(state, event.workItemID);
      }
      return state;
    default:
      return state;
  }
}

function without(state: EngineState, workItemID: string): EngineState {
  if (!(workItemID in state.mergeConflicts)) return state;
  const { [workItemID]: _dropped, ...rest } = state.mergeConflicts;
  return { ...state, mergeConflicts: rest };
}
