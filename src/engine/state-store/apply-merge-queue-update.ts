import type { EngineEvent } from '../../domain/index.ts';
import type { EngineState } from './engine-state.ts';

/**
 * The merge queue's part of the state (issue #30 §5): a `conflict` step records the conflict for the item's
 * next implementor prompt; any other step of that item, and the item approved again, closed or gone, drops
 * it. `trackerMergeQueue` follows what was handed to the tracker's own queue. Returns the same state when
 * nothing changes.
 */
export function applyMergeQueueUpdate(state: EngineState, event: EngineEvent): EngineState {
  return applyTrackerQueueUpdate(applyConflictUpdate(state, event), event);
}

function applyConflictUpdate(state: EngineState, event: EngineEvent): EngineState {
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

/**
 * An `enqueued` step: the tracker's queue is in use and holds the item at that head. A step Flotilla's own
 * queue made (rebased, up to date, merged): it is not in use. The item leaving `approved`, or its revision's
 * head moving (a push takes a pull request out of GitHub's queue): no longer queued.
 */
function applyTrackerQueueUpdate(state: EngineState, event: EngineEvent): EngineState {
  const { trackerMergeQueue: tracker } = state;
  switch (event.type) {
    case 'mergeQueueStepped':
      if (event.outcome === 'enqueued') {
        if (tracker.inUse && tracker.queued[event.workItemID] === event.headSHA) return state;
        return {
          ...state,
          trackerMergeQueue: {
            inUse: true,
            queued: { ...tracker.queued, [event.workItemID]: event.headSHA },
          },
        };
      }
      if (event.outcome === 'conflict') return withoutQueued(state, event.workItemID);
      return tracker.inUse || event.workItemID in tracker.queued
        ? { ...state, trackerMergeQueue: { inUse: false, queued: dropKey(tracker.queued, event.workItemID) } }
        : state;
    case 'workItemChanged':
      return event.newStatus === 'approved' ? state : withoutQueued(state, event.workItemID);
    case 'revisionChanged': {
      const id = event.workItemID;
      if (id === null || tracker.queued[id] === undefined) return state;
      return event.revision?.headSHA === tracker.queued[id] ? state : withoutQueued(state, id);
    }
    default:
      return state;
  }
}

function withoutQueued(state: EngineState, workItemID: string): EngineState {
  const { trackerMergeQueue: tracker } = state;
  if (!(workItemID in tracker.queued)) return state;
  return { ...state, trackerMergeQueue: { ...tracker, queued: dropKey(tracker.queued, workItemID) } };
}

function dropKey(record: Record<string, string>, key: string): Record<string, string> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}
