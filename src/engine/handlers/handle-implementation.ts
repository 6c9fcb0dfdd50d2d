import type { EngineCommand, ImplementorFailed } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildParkingCommands } from './build-parking-commands.ts';
import { buildValidationFailedComment } from './comments/build-validation-failed-comment.ts';
import type { Handler, HandlerConfig } from './handler.ts';

/**
 * A ready task gets an implementor; an accepted request moves it in-progress; a result is applied; a failure
 * sends it back to pending for a backed-off retry, or parks it as blocked (user cancel, retries exhausted);
 * work that still fails validation after the last fix round goes to needs-refinement (a human decides).
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
          // A resumed session (2, 3…) takes its item out of waiting-for-input.
          cause:
            event.sessionNumber !== undefined && event.sessionNumber > 1
              ? 'questions-answered'
              : 'implementor-accepted',
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
  // Another attempt would most likely fail the same way: never retried blindly, whatever the attempt count.
  if (event.reason === 'validation') {
    return [
      {
        type: 'transitionWorkItemStatus',
        workItemID: event.workItemID,
        newStatus: 'needs-refinement',
        cause: 'validation-failed',
      },
      {
        type: 'commentOnWorkItem',
        workItemID: event.workItemID,
        body: buildValidationFailedComment({
          sessionID: event.sessionID,
          error: event.error,
          logFilePath: event.logFilePath ?? state.agentRuns[event.sessionID]?.logFilePath ?? null,
        }),
      },
    ];
  }
  const parked = buildParkingCommands(event, state, config);
  if (parked) return parked;
  // Back to pending (after a shutdown cancel too): readiness makes it ready again, and the scheduler backs
  // the new request off after a failure.
  return [
    {
      type: 'transitionWorkItemStatus',
      workItemID: event.workItemID,
      newStatus: 'pending',
      cause: 'implementor-failed',
    },
  ];
}
