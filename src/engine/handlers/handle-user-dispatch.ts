import { type EngineCommand, isAgentRunActive, type UserCancelledRun } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { getActivePlannerRun } from '../state-store/selectors/index.ts';
import type { Handler } from './handler.ts';
import { requestPlanningIfNeeded } from './request-planning-if-needed.ts';

/**
 * Turns a human's dispatch, cancel, status, merge and planning actions into commands (they pass the same guards
 * and policy).
 */
export const handleUserDispatch: Handler = (event, state) => {
  switch (event.type) {
    case 'userRequestedImplementorRun': {
      const workItem = state.workItems[event.workItemID];
      if (workItem === undefined || workItem.kind !== 'task') return [];
      switch (workItem.status) {
        case 'ready':
          return [{ type: 'requestImplementorRun', workItemID: workItem.id }];
        case 'pending':
        case 'blocked':
        case 'needs-refinement':
          // The resulting workItemChanged(ready) makes the implementation handler request the run.
          return [
            { type: 'transitionWorkItemStatus', workItemID: workItem.id, newStatus: 'ready', cause: 'user' },
          ];
        default:
          return [];
      }
    }
    case 'userRequestedReviewerRun': {
      const workItem = state.workItems[event.workItemID];
      if (workItem === undefined || workItem.status !== 'review' || workItem.linkedRevision === null)
        return [];
      return [{ type: 'requestReviewerRun', workItemID: workItem.id, revisionID: workItem.linkedRevision }];
    }
    case 'userRequestedMerge': {
      const workItem = state.workItems[event.workItemID];
      // Only what a reviewer (or a human) approved is merged, and only a revision the store still has open.
      if (workItem === undefined || workItem.status !== 'approved' || workItem.linkedRevision === null)
        return [];
      if (state.revisions[workItem.linkedRevision] === undefined) return [];
      return [{ type: 'mergeRevision', workItemID: workItem.id, revisionID: workItem.linkedRevision }];
    }
    case 'userRequestedPlannerRun':
      if (getActivePlannerRun(state) !== null) return [];
      return requestPlanningIfNeeded(state);
    case 'userCancelledRun':
      return cancelRun(event, state);
    case 'userTransitionedStatus':
      return [
        {
          type: 'transitionWorkItemStatus',
          workItemID: event.workItemID,
          newStatus: event.newStatus,
          cause: 'user',
        },
      ];
    default:
      return [];
  }
};

function cancelRun(event: UserCancelledRun, state: EngineState): EngineCommand[] {
  const run = state.agentRuns[event.sessionID];
  // Cancel commands target the role's active run; for a run that already ended that would be another run.
  if (run === undefined || !isAgentRunActive(run)) return [];
  switch (run.role) {
    case 'planner':
      return [{ type: 'cancelPlannerRun' }];
    case 'implementor':
      return [{ type: 'cancelImplementorRun', workItemID: run.workItemID }];
    case 'reviewer':
      return [{ type: 'cancelReviewerRun', workItemID: run.workItemID }];
  }
}
