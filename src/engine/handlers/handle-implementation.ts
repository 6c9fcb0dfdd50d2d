import type { EngineCommand, ImplementorFailed } from '../../domain/index.ts';
import type { HandlerConfig } from '../engine-config.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { getFailureRecord } from '../state-store/selectors/index.ts';
import { buildRetriesExhaustedComment } from './comments/build-retries-exhausted-comment.ts';
import { buildRunCancelledComment } from './comments/build-run-cancelled-comment.ts';
import type { Handler } from './handler.ts';

/**
 * A ready task gets an implementor; an accepted request moves it in-progress; a result is applied; a failure
 * sends it back to pending for a backed-off retry, or parks it as blocked (user cancel, retries exhausted).
 */
export const handleImplementation: Handler = (event, state, config) => {
  switch (event.type) {
    case 'workItemChanged': {
      if (event.newStatus !== 'ready') return [];
      const workItem = state.workItems[event.workItemID];
      if (workItem === undefined || workItem.status !== 'ready' || workItem.kind !== 'task') return [];
      return [{ type: 'requestImplementorRun', workItemID: workItem.id }];
    }
    case 'implementorRequested':
      return [
        {
          type: 'transitionWorkItemStatus',
          workItemID: event.workItemID,
          newStatus: 'in-progress',
          cause: 'implementor-accepted',
        },
      ];
    case 'implementorCompleted':
      return [
        {
          type: 'applyImplementorResult',
          workItemID: event.workItemID,
          branchName: event.branchName,
          result: event.result,
        },
      ];
    case 'implementorFailed':
      return reactToFailure(event, state, config);
    default:
      return [];
  }
};

function reactToFailure(
  event: ImplementorFailed,
  state: EngineState,
  config: HandlerConfig,
): EngineCommand[] {
  const workItemID = event.workItemID;
  if (event.reason === 'cancelled') {
    if (state.agentRuns[event.sessionID]?.cancelRequestedBy === 'user') {
      return [
        { type: 'transitionWorkItemStatus', workItemID, newStatus: 'blocked', cause: 'run-cancelled' },
        {
          type: 'commentOnWorkItem',
          workItemID,
          body: buildRunCancelledComment('implementor', event.sessionID),
        },
      ];
    }
    // Cancelled at shutdown: the item simply goes back in line.
    return [
      { type: 'transitionWorkItemStatus', workItemID, newStatus: 'pending', cause: 'implementor-failed' },
    ];
  }
  const failure = getFailureRecord(state, 'implementor', workItemID);
  if (failure !== null && failure.attempts >= config.maxAttempts) {
    return [
      { type: 'transitionWorkItemStatus', workItemID, newStatus: 'blocked', cause: 'retries-exhausted' },
      {
        type: 'commentOnWorkItem',
        workItemID,
        body: buildRetriesExhaustedComment({
          role: 'implementor',
          failure,
          maxAttempts: config.maxAttempts,
          logFilePath: state.agentRuns[failure.lastSessionID]?.logFilePath ?? null,
        }),
      },
    ];
  }
  // Back to pending; readiness makes it ready again and the scheduler backs the new request off.
  return [
    { type: 'transitionWorkItemStatus', workItemID, newStatus: 'pending', cause: 'implementor-failed' },
  ];
}
