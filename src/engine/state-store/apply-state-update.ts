import {
  type AgentNoted,
  type AgentUsageReported,
  type ConversationAnswered,
  type ConversationCreated,
  describeConversationParty,
  type EngineEvent,
  isAgentRunActive,
  type Revision,
  type RevisionChanged,
  type SpecChanged,
  toSummaryLine,
  type UserCancelledRun,
  type WorkItemChanged,
} from '../../domain/index.ts';
import { applyErrorAndQueueUpdate } from './apply-error-and-queue-update.ts';
import { applyFeedbackUpdate } from './apply-feedback-update.ts';
import { applyMergeQueueUpdate } from './apply-merge-queue-update.ts';
import { applyProposalUpdate } from './apply-proposal-update.ts';
import { applyQuestionsUpdate } from './apply-questions-update.ts';
import { applyRefinementUpdate } from './apply-refinement-update.ts';
import { applyRunUpdate } from './apply-run-update.ts';
import { applyTaskContextUpdate } from './apply-task-context-update.ts';
import { type EngineState, failureKey } from './engine-state.ts';
import { isPlainDataEqual } from './is-plain-data-equal.ts';
import {
  omitKeys,
  putFinishedRun,
  putRun,
  rejected,
  type StateUpdate,
  setKey,
  unchanged,
  withFailures,
} from './state-update-records.ts';

export type { StateUpdate } from './state-update-records.ts';

/**
 * The only way state changes: a pure function of the state and one event. Never mutates its input; returns
 * the very same state object when the event changes nothing, so subscribers can compare by reference.
 * The rules are the cases below, one per event type, pinned by apply-state-update.test.ts.
 */
export function applyStateUpdate(state: EngineState, event: EngineEvent): StateUpdate {
  const update = applyEventUpdate(state, event);
  const withFeedback = applyFeedbackUpdate(update.state, event);
  const withContext = applyTaskContextUpdate(state, withFeedback, event);
  const withQueue = applyMergeQueueUpdate(withContext, event);
  const withRefined = applyRefinementUpdate(withQueue, event);
  return withRefined === update.state ? update : { ...update, state: withRefined };
}

type EventUpdates = {
  [Type in EngineEvent['type']]: (
    state: EngineState,
    event: Extract<EngineEvent, { type: Type }>,
  ) => StateUpdate;
};

const keep = (state: EngineState): StateUpdate => unchanged(state);
const clearFailures = (state: EngineState, key: string): StateUpdate =>
  unchanged(withFailures(state, omitKeys(state.failures, [key])));

/** One rule per event type; the mapped type makes a new event type without a rule a compile error. */
const EVENT_UPDATES: EventUpdates = {
  workItemChanged: applyWorkItemChanged,
  revisionChanged: applyRevisionChanged,
  specChanged: applySpecChanged,

  plannerRequested: applyRunUpdate,
  implementorRequested: applyRunUpdate,
  reviewerRequested: applyRunUpdate,
  plannerStarted: applyRunUpdate,
  implementorStarted: applyRunUpdate,
  reviewerStarted: applyRunUpdate,
  plannerCompleted: applyRunUpdate,
  implementorCompleted: applyRunUpdate,
  reviewerCompleted: applyRunUpdate,
  plannerFailed: applyRunUpdate,
  implementorFailed: applyRunUpdate,
  reviewerFailed: applyRunUpdate,

  agentAskedQuestions: (state, event) => applyQuestionsUpdate(state, event, putFinishedRun),
  questionsAnswered: (state, event) => applyQuestionsUpdate(state, event, putFinishedRun),
  questionsTimedOut: (state, event) => applyQuestionsUpdate(state, event, putFinishedRun),
  waitingSessionDiscarded: (state, event) => applyQuestionsUpdate(state, event, putFinishedRun),

  commandRejected: (state, event) => unchanged(applyErrorAndQueueUpdate(state, event)),
  commandFailed: (state, event) => unchanged(applyErrorAndQueueUpdate(state, event)),
  errorRecorded: (state, event) => unchanged(applyErrorAndQueueUpdate(state, event)),
  dispatchQueued: (state, event) => unchanged(applyErrorAndQueueUpdate(state, event)),
  dispatchDropped: (state, event) => unchanged(applyErrorAndQueueUpdate(state, event)),

  agentUsageReported: recordLiveUsage,
  // Handlers park the item; the state learns of it through the item's own change.
  workItemOverBudget: keep,
  budgetPauseChanged: (state, event) =>
    unchanged(
      isPlainDataEqual(state.budgetPause, event.pause) ? state : { ...state, budgetPause: event.pause },
    ),

  userCancelledRun: markCancelledByUser,
  // A human asking again gives the item a fresh attempt budget.
  userRequestedImplementorRun: (state, event) =>
    clearFailures(state, failureKey('implementor', event.workItemID)),
  userRequestedReviewerRun: (state, event) => clearFailures(state, failureKey('reviewer', event.workItemID)),
  userRequestedPlannerRun: (state) => clearFailures(state, failureKey('planner')),
  userTransitionedStatus: (state, event) => unchanged(withoutItemCounters(state, event.workItemID)),
  // applyMergeQueueUpdate records a conflict; the step's other results come as their own events.
  mergeQueueStepped: keep,
  // Nothing to record: the merge's own result events (or its rejection) change the state.
  userRequestedMerge: keep,
  // applyFeedbackUpdate records them.
  revisionFeedbackReceived: keep,
  revisionFeedbackAnswered: keep,
  agentNoted: recordSummary,
  // The broker routes them and the store keeps them; the state shows the open one on each run.
  conversationCreated: recordConversation,
  conversationAnswered: recordConversation,
  // The run records its account from its *Requested event; this one is for people (progress, history).
  accountSwitched: keep,
  proposalCreated: applyProposalUpdate,
  proposalDecided: applyProposalUpdate,
  proposalStale: applyProposalUpdate,
  // applyTaskContextUpdate gives each fix item the investigation's report.
  modeResultApplied: keep,
  // applyTaskContextUpdate gives each item the plan's summary.
  planApplied: keep,
};

function applyEventUpdate(state: EngineState, event: EngineEvent): StateUpdate {
  const update = EVENT_UPDATES[event.type] as
    | ((state: EngineState, event: EngineEvent) => StateUpdate)
    | undefined;
  // Only an event from outside the types (a corrupt journal line) has no rule.
  if (update === undefined) throw new Error(`applyStateUpdate: unhandled event ${JSON.stringify(event)}`);
  return update(state, event);
}

// --- observations -----------------------------------------------------------------------------------

function applyWorkItemChanged(state: EngineState, event: WorkItemChanged): StateUpdate {
  if (event.workItem === null) {
    const workItems = omitKeys(state.workItems, [event.workItemID]);
    return unchanged(workItems === state.workItems ? state : { ...state, workItems });
  }
  if (event.workItem.id !== event.workItemID) {
    return rejected(
      state,
      `workItemChanged: snapshot id ${event.workItem.id} does not match ${event.workItemID}`,
    );
  }
  // Closed items are kept: they are what makes a closed blocker resolve.
  const workItems = setKey(state.workItems, event.workItemID, event.workItem);
  const next = workItems === state.workItems ? state : { ...state, workItems };
  // Only a human moves an item out of blocked / needs-refinement back into line (the engine never does), e.g.
  // with `flotilla work transition`: that gives it a fresh retry budget and review-round count.
  const previous = state.workItems[event.workItemID]?.status;
  const released =
    (previous === 'blocked' || previous === 'needs-refinement') &&
    (event.workItem.status === 'pending' || event.workItem.status === 'ready');
  return unchanged(released ? withoutItemCounters(next, event.workItemID) : next);
}

/** Clears a work item's consecutive-failure records, review rounds and check rounds. */
function withoutItemCounters(state: EngineState, workItemID: string): EngineState {
  const failures = omitKeys(state.failures, [
    failureKey('implementor', workItemID),
    failureKey('reviewer', workItemID),
  ]);
  const reviewRounds = omitKeys(state.reviewRounds, [workItemID]);
  const checkRounds = omitKeys(state.checkRounds, [workItemID]);
  if (
    failures === state.failures &&
    reviewRounds === state.reviewRounds &&
    checkRounds === state.checkRounds
  ) {
    return state;
  }
  return { ...state, failures, reviewRounds, checkRounds };
}

function applyRevisionChanged(state: EngineState, event: RevisionChanged): StateUpdate {
  if (event.revision === null) {
    const revisions = omitKeys(state.revisions, [event.revisionID]);
    return unchanged(revisions === state.revisions ? state : { ...state, revisions });
  }
  if (event.revision.id !== event.revisionID) {
    return rejected(
      state,
      `revisionChanged: snapshot id ${event.revision.id} does not match ${event.revisionID}`,
    );
  }
  // A null pipeline means "unknown right now" (CI fetch failed), never "removed": keep the last known one.
  const known = state.revisions[event.revisionID];
  const revision =
    event.revision.pipeline === null && known !== undefined
      ? { ...event.revision, pipeline: known.pipeline }
      : event.revision;
  const revisions = setKey(state.revisions, event.revisionID, revision);
  const next = revisions === state.revisions ? state : { ...state, revisions };
  return unchanged(isNewChecksFailure(known, revision) ? countCheckRound(next, revision) : next);
}

/**
 * Checks that turned red (each rework push makes the pipeline pending first); a revision that was already
 * red and changes otherwise (a repeated poll, a body edit) is not a new round.
 */
function isNewChecksFailure(known: Revision | undefined, revision: Revision): boolean {
  if (revision.pipeline?.status !== 'failure' || revision.workItemID === null) return false;
  return known?.pipeline?.status !== 'failure';
}

function countCheckRound(state: EngineState, revision: Revision): EngineState {
  const workItemID = revision.workItemID;
  if (workItemID === null) return state;
  return {
    ...state,
    checkRounds: { ...state.checkRounds, [workItemID]: (state.checkRounds[workItemID] ?? 0) + 1 },
  };
}

function applySpecChanged(state: EngineState, event: SpecChanged): StateUpdate {
  if (event.changeType === 'removed') {
    const specs = omitKeys(state.specs, [event.filePath]);
    return unchanged(specs === state.specs ? state : { ...state, specs });
  }
  const specs = setKey(state.specs, event.filePath, {
    filePath: event.filePath,
    blobSHA: event.blobSHA,
    frontmatterStatus: event.frontmatterStatus,
  });
  return unchanged(specs === state.specs ? state : { ...state, specs });
}

// --- agent runs -------------------------------------------------------------------------------------

function recordLiveUsage(state: EngineState, event: AgentUsageReported): StateUpdate {
  const run = state.agentRuns[event.sessionID];
  if (run === undefined || !isAgentRunActive(run)) return unchanged(state);
  if (isPlainDataEqual(run.usage, event.usage)) return unchanged(state);
  return unchanged(putRun(state, { ...run, usage: event.usage }));
}

/**
 * A running run's live one-line progress (`update_summary`); memories, decisions and questions change no
 * state: persistence stores them (storage/engine-state), and the next prompts read them from there.
 */
function recordSummary(state: EngineState, event: AgentNoted): StateUpdate {
  if (event.note.kind !== 'summary') return unchanged(state);
  const run = state.agentRuns[event.sessionID];
  if (run === undefined || !isAgentRunActive(run)) return unchanged(state);
  const summary = toSummaryLine(event.note.text);
  if (run.summary === summary) return unchanged(state);
  return unchanged(putRun(state, { ...run, summary }));
}

/** An open conversation's line on both runs (the dashboard shows it); its end clears it. */
function recordConversation(
  state: EngineState,
  event: ConversationCreated | ConversationAnswered,
): StateUpdate {
  if (event.type === 'conversationAnswered') {
    let next = state;
    for (const run of Object.values(state.agentRuns))
      if (run.conversation?.id === event.conversationID) {
        const { conversation: _ended, ...rest } = run;
        next = putRun(next, rest);
      }
    return unchanged(next);
  }
  const { conversation } = event;
  if (conversation.status !== 'open' || conversation.to === null) return unchanged(state);
  const question = toSummaryLine(conversation.question);
  const lines: [string, string][] = [
    [conversation.from.sessionID, `asks the ${describeConversationParty(conversation.to)}: ${question}`],
    [conversation.to.sessionID, `asked by the ${describeConversationParty(conversation.from)}: ${question}`],
  ];
  let next = state;
  for (const [sessionID, line] of lines) {
    const run = next.agentRuns[sessionID];
    if (run !== undefined && isAgentRunActive(run))
      next = putRun(next, { ...run, conversation: { id: conversation.id, line } });
  }
  return unchanged(next);
}

function markCancelledByUser(state: EngineState, event: UserCancelledRun): StateUpdate {
  const run = state.agentRuns[event.sessionID];
  if (run === undefined) return rejected(state, `userCancelledRun: unknown session ${event.sessionID}`);
  if (!isAgentRunActive(run)) {
    return rejected(state, `userCancelledRun: session ${event.sessionID} is already ${run.status}`);
  }
  if (run.cancelRequestedBy === 'user') return unchanged(state);
  return unchanged(putRun(state, { ...run, cancelRequestedBy: 'user' }));
}
