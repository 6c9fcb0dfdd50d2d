import type {
  EngineCommand,
  ImplementorCompleted,
  ImplementorFailed,
  ModeReport,
  WorkItemChanged,
} from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { getActiveAgentRun } from '../state-store/selectors/index.ts';
import { buildParkingCommands } from './build-parking-commands.ts';
import { buildNoChangesComment } from './comments/build-no-changes-comment.ts';
import { buildValidationFailedComment } from './comments/build-validation-failed-comment.ts';
import type { Handler, HandlerConfig } from './handler.ts';
import { isAutoRefineRun, isAutoRefineWaitStatus } from './is-auto-refine-run.ts';
import { isLeftByHuman } from './is-left-by-human.ts';

/**
 * A ready task gets an implementor; an accepted request moves it in-progress; a result is applied; a failure
 * sends it back to pending for a backed-off retry, or parks it as blocked (user cancel, retries exhausted);
 * work that still fails validation after the last fix round, or that changed nothing, goes to
 * needs-refinement (a human decides).
 * A human closing (approving, blocking, sending to needs-refinement) an item while its implementor runs
 * cancels the run, and whatever it still ends with leaves the item where the human put it.
 */
export const handleImplementation: Handler = (event, state, config) => {
  switch (event.type) {
    case 'workItemChanged': {
      if (event.oldStatus === 'in-progress') return cancelIfLeftByHuman(event, state);
      if (event.newStatus !== 'ready') return [];
      const workItem = state.workItems[event.workItemID];
      if (workItem === undefined || workItem.status !== 'ready' || workItem.kind !== 'task') return [];
      return [{ type: 'requestImplementorRun', workItemID: workItem.id }];
    }
    case 'implementorRequested':
      // An automatic refinement: its item waits where it is (handle-auto-refinement.ts); answered, in
      // needs-refinement, where its report is applied from.
      if (event.mode === 'refine' && state.workItems[event.workItemID]?.mode !== 'refine')
        return isResume(event.sessionNumber)
          ? [
              {
                type: 'transitionWorkItemStatus',
                workItemID: event.workItemID,
                newStatus: 'needs-refinement',
                cause: 'questions-answered',
              },
            ]
          : [];
      return [
        {
          type: 'transitionWorkItemStatus',
          workItemID: event.workItemID,
          newStatus: 'in-progress',
          // A resumed session (2, 3…) takes its item out of waiting-for-input.
          cause: isResume(event.sessionNumber) ? 'questions-answered' : 'implementor-accepted',
        },
      ];
    case 'implementorCompleted':
      if (isAutoRefineRun(state, event.sessionID, event.workItemID))
        return reactToAutoRefinement(event, state, config);
      if (isLeftByHuman(state.workItems[event.workItemID]?.status)) return [resultNotApplied(event, state)];
      if (event.result.report !== undefined) return reactToModeReport(event, event.result.report, config);
      return [
        {
          type: 'applyImplementorResult',
          workItemID: event.workItemID,
          branchName: event.branchName,
          result: event.result,
        },
      ];
    case 'implementorFailed':
      if (isAutoRefineRun(state, event.sessionID, event.workItemID))
        return autoRefinementFailed(event, state);
      return reactToFailure(event, state, config);
    default:
      return [];
  }
};

/** A resumed session (2, 3…): a human answered the questions its previous session stopped with. */
function isResume(sessionNumber: number | undefined): boolean {
  return sessionNumber !== undefined && sessionNumber > 1;
}

/**
 * An investigation or refinement ended with its report (issue #29): applied at once, or proposed when
 * `approval.investigations` / `approval.refinements` is `required`.
 */
function reactToModeReport(
  event: ImplementorCompleted,
  report: ModeReport,
  config: HandlerConfig,
): EngineCommand[] {
  const approval =
    report.mode === 'investigate' ? config.approval?.investigations : config.approval?.refinements;
  const fields = { workItemID: event.workItemID, sessionID: event.sessionID, report };
  return [
    approval === 'required'
      ? { type: 'proposeModeResult', ...fields }
      : { type: 'applyModeResult', ...fields },
  ];
}

/**
 * An automatic refinement ended with its report: applied or proposed as any refinement's, unless a human
 * moved the item meanwhile (then only a comment keeps it).
 */
function reactToAutoRefinement(
  event: ImplementorCompleted,
  state: EngineState,
  config: HandlerConfig,
): EngineCommand[] {
  const item = state.workItems[event.workItemID];
  const waiting = item !== undefined && isAutoRefineWaitStatus(item, item.status);
  if (waiting && event.result.report?.mode === 'refine')
    return reactToModeReport(event, event.result.report, config);
  return [resultNotApplied(event, state)];
}

/**
 * An automatic refinement failed: never retried on its own (its body version is recorded as refined), the
 * item stays where it waits and a comment says why and how to refine it again. One stopped from outside
 * (cancelled, the control plane stopping) did not refine the version: the next start refines it again.
 */
function autoRefinementFailed(event: ImplementorFailed, state: EngineState): EngineCommand[] {
  const item = state.workItems[event.workItemID];
  if (item === undefined || !isAutoRefineWaitStatus(item, item.status)) return [];
  const next =
    event.reason === 'cancelled'
      ? 'It was stopped before it finished, so it does not count: the next start of the control plane ' +
        'refines the item again (or edit the description, or move the item back to pending to implement ' +
        'it as it is).'
      : 'It is not retried on its own. Edit the description to refine it again, or move the item back to ' +
        'pending to implement it as it is.';
  return [
    {
      type: 'commentOnWorkItem',
      workItemID: event.workItemID,
      body: `The automatic refinement (session ${event.sessionID}) failed (${event.reason}): ${event.error}\n\n${next}`,
    },
  ];
}

function cancelIfLeftByHuman(event: WorkItemChanged, state: EngineState): EngineCommand[] {
  if (!isLeftByHuman(event.newStatus) || state.workItems[event.workItemID]?.status !== event.newStatus)
    return [];
  if (getActiveAgentRun(state, event.workItemID, 'implementor') === null) return [];
  return [{ type: 'cancelImplementorRun', workItemID: event.workItemID }];
}

/** A failure a retry would repeat (validation, no changes): the item needs refinement, the comment says why. */
function needsRefinement(event: ImplementorFailed, state: EngineState): EngineCommand[] {
  const validation = event.reason === 'validation';
  const details = {
    sessionID: event.sessionID,
    error: event.error,
    logFilePath: event.logFilePath ?? state.agentRuns[event.sessionID]?.logFilePath ?? null,
  };
  return [
    {
      type: 'transitionWorkItemStatus',
      workItemID: event.workItemID,
      newStatus: 'needs-refinement',
      cause: validation ? 'validation-failed' : 'no-changes',
    },
    {
      type: 'commentOnWorkItem',
      workItemID: event.workItemID,
      body: validation ? buildValidationFailedComment(details) : buildNoChangesComment(details),
    },
  ];
}

/** The run finished before its cancel landed: its work is kept in a comment, not applied. */
function resultNotApplied(event: ImplementorCompleted, state: EngineState): EngineCommand {
  const status = state.workItems[event.workItemID]?.status;
  return {
    type: 'commentOnWorkItem',
    workItemID: event.workItemID,
    body:
      `The implementor (session ${event.sessionID}) finished after this item was moved to ${status}; ` +
      `its ${event.result.outcome} result was not applied.\n\nImplementor summary:\n\n${event.result.summary}`,
  };
}

function reactToFailure(
  event: ImplementorFailed,
  state: EngineState,
  config: HandlerConfig,
): EngineCommand[] {
  // A human took the item (its run was cancelled for that): it stays where they put it.
  if (isLeftByHuman(state.workItems[event.workItemID]?.status)) return [];
  // Another attempt would most likely fail the same way: never retried blindly, whatever the attempt count.
  // Completed with nothing changed (issue #28 §6): the task is done already or misunderstood; a retry
  // would most likely change nothing again.
  if (event.reason === 'validation' || event.reason === 'no-changes') return needsRefinement(event, state);
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
