import type {
  CommandFailed,
  EngineCommand,
  ReviewerCompleted,
  ReviewerFailed,
  RevisionChanged,
  WorkItemChanged,
  WorkItemStatus,
} from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import {
  getActiveAgentRun,
  getCheckRounds,
  getReviewRounds,
  getWorkItemWithRevision,
} from '../state-store/selectors/index.ts';
import { buildParkingCommands } from './build-parking-commands.ts';
import { buildChecksFailedComment } from './comments/build-checks-failed-comment.ts';
import type { Handler, HandlerConfig } from './handler.ts';

/**
 * A green revision whose item is in review gets a reviewer, a red one goes back for rework (up to the
 * check-round cap, then to a human); a verdict is applied (needs-changes goes back for
 * rework until the review-round cap, then to a human); a failed review is retried, or parked as blocked.
 * An item moved out of review while its reviewer runs (a human closed, approved or sent it back, or its
 * checks went red) cancels the reviewer, and whatever the run still ends with leaves the item where it is.
 */
export const handleReview: Handler = (event, state, config) => {
  switch (event.type) {
    case 'revisionChanged': {
      if (event.newPipelineStatus === 'failure') return reactToFailedChecks(event, state, config);
      if (event.newPipelineStatus !== 'success' || event.workItemID === null) return [];
      const workItem = state.workItems[event.workItemID];
      if (workItem === undefined || workItem.status !== 'review') return [];
      if (getActiveAgentRun(state, workItem.id, 'reviewer') !== null) return [];
      return [{ type: 'requestReviewerRun', workItemID: workItem.id, revisionID: event.revisionID }];
    }
    case 'workItemChanged': {
      if (event.oldStatus === 'review' && event.newStatus !== 'review') return cancelIfMovedOn(event, state);
      if (event.newStatus !== 'review') return [];
      const linked = getWorkItemWithRevision(state, event.workItemID);
      if (linked === null || linked.workItem.status !== 'review') return [];
      // The implementor's revision came with its checks already red (fast CI: the failure was seen while
      // the item was still in progress, so it could not go back then): back for rework now.
      if (linked.revision.pipeline?.status === 'failure' && event.oldStatus === 'in-progress') {
        return sendBackForRedChecks(linked.workItem.id, linked.revision.id, state, config);
      }
      if (linked.revision.pipeline?.status !== 'success') return [];
      if (getActiveAgentRun(state, linked.workItem.id, 'reviewer') !== null) return [];
      return [{ type: 'requestReviewerRun', workItemID: linked.workItem.id, revisionID: linked.revision.id }];
    }
    case 'reviewerCompleted': {
      const movedTo = movedOnStatus(state, event.workItemID);
      if (movedTo !== null) return [verdictNotApplied(event, movedTo)];
      return [
        {
          type: 'applyReviewerResult',
          workItemID: event.workItemID,
          revisionID: event.revisionID,
          review: event.result.review,
          // The state update has already counted this verdict.
          needsChangesStatus:
            getReviewRounds(state, event.workItemID) <= config.maxReviewRounds
              ? 'pending'
              : 'needs-refinement',
        },
      ];
    }
    case 'reviewerFailed':
      return reactToFailure(event, state, config);
    case 'commandFailed':
      return reactToVerdictNotWritten(event, state);
    default:
      return [];
  }
};

/**
 * Red checks on the revision of an item in review: back to pending for automatic rework (the implementor's
 * prompt carries the checks output) while the state update's count is within maxCheckRounds, else to
 * needs-refinement. Only a newly seen failure counts and triggers; a repeated poll of a red head does not.
 */
function reactToFailedChecks(
  event: RevisionChanged,
  state: EngineState,
  config: HandlerConfig,
): EngineCommand[] {
  if (event.workItemID === null || event.oldPipelineStatus === 'failure') return [];
  return sendBackForRedChecks(event.workItemID, event.revisionID, state, config);
}

/** The red-checks reaction for an item in review whose linked revision is `revisionID`. */
function sendBackForRedChecks(
  workItemID: string,
  revisionID: string,
  state: EngineState,
  config: HandlerConfig,
): EngineCommand[] {
  const linked = getWorkItemWithRevision(state, workItemID);
  if (linked === null || linked.revision.id !== revisionID) return [];
  const { workItem, revision } = linked;
  if (workItem.status !== 'review' || revision.pipeline?.status !== 'failure') return [];
  if (getActiveAgentRun(state, workItem.id, 'implementor') !== null) return [];
  // The state update has already counted this failure.
  const round = getCheckRounds(state, workItem.id);
  const giveUp = round > config.maxCheckRounds;
  return [
    {
      type: 'commentOnWorkItem',
      workItemID: workItem.id,
      body: buildChecksFailedComment({
        revisionID: revision.id,
        pipeline: revision.pipeline,
        round,
        maxCheckRounds: config.maxCheckRounds,
      }),
    },
    {
      type: 'transitionWorkItemStatus',
      workItemID: workItem.id,
      newStatus: giveUp ? 'needs-refinement' : 'pending',
      cause: 'checks-failed',
    },
  ];
}

/**
 * The reviewer's verdict could not be written (the executor gave up, e.g. GitHub refused the review): the
 * item would otherwise stay in review for ever. It goes to needs-refinement with a comment saying why and
 * what to do; the verdict is in the comment, so nothing the reviewer said is lost.
 */
function reactToVerdictNotWritten(event: CommandFailed, state: EngineState): EngineCommand[] {
  const { command } = event;
  if (command.type !== 'applyReviewerResult') return [];
  if (state.workItems[command.workItemID]?.status !== 'review') return [];
  const { verdict, summary } = command.review;
  return [
    {
      type: 'commentOnWorkItem',
      workItemID: command.workItemID,
      body:
        `Flotilla could not record the reviewer's ${verdict} verdict on revision ${command.revisionID}: ` +
        `${event.error}\n\nThis item is now needs-refinement so it does not wait in review for ever. Fix the ` +
        'cause (the error above: permissions, branch protection, the reviewing identity), then move the item ' +
        `back to review for a new review, or approve it yourself.\n\nReviewer summary:\n\n${summary}`,
    },
    {
      type: 'transitionWorkItemStatus',
      workItemID: command.workItemID,
      newStatus: 'needs-refinement',
      cause: 'command-failed',
    },
  ];
}

/**
 * The item left review while its reviewer ran (null: it was deleted). Only the reviewer itself takes it to
 * waiting-for-input (asking), and a resumed reviewer brings it back to review before it starts.
 */
function isMovedOn(status: WorkItemStatus | null): boolean {
  return status !== 'review' && status !== 'waiting-for-input';
}

/** The status of an item the engine knows (an unknown one is the executor's to report). */
function movedOnStatus(state: EngineState, workItemID: string): WorkItemStatus | null {
  const status = state.workItems[workItemID]?.status;
  return status !== undefined && isMovedOn(status) ? status : null;
}

function cancelIfMovedOn(event: WorkItemChanged, state: EngineState): EngineCommand[] {
  const current = state.workItems[event.workItemID]?.status ?? null;
  if (!isMovedOn(event.newStatus) || current !== event.newStatus) return [];
  if (getActiveAgentRun(state, event.workItemID, 'reviewer') === null) return [];
  return [{ type: 'cancelReviewerRun', workItemID: event.workItemID }];
}

/** The run finished before its cancel landed: its verdict is kept in a comment, not applied. */
function verdictNotApplied(event: ReviewerCompleted, status: WorkItemStatus): EngineCommand {
  const { verdict, summary } = event.result.review;
  return {
    type: 'commentOnWorkItem',
    workItemID: event.workItemID,
    body:
      `The reviewer (session ${event.sessionID}) finished after this item was moved to ${status}; ` +
      `its ${verdict} verdict on revision ${event.revisionID} was not applied.\n\nReviewer summary:\n\n${summary}`,
  };
}

function reactToFailure(event: ReviewerFailed, state: EngineState, config: HandlerConfig): EngineCommand[] {
  // The item left review (its run was cancelled for that): nothing to retry or park.
  if (movedOnStatus(state, event.workItemID) !== null) return [];
  const parked = buildParkingCommands(event, state, config);
  if (parked) return parked;
  // Cancelled at shutdown: nothing to do; the item stays in review for the next start.
  if (event.reason === 'cancelled') return [];
  // Retry the review itself (not the implementation); the scheduler backs it off.
  return [{ type: 'requestReviewerRun', workItemID: event.workItemID, revisionID: event.revisionID }];
}
