import {
  type AgentNoted,
  type AgentRole,
  type AgentRun,
  type AgentRunStatus,
  type AgentUsageReported,
  type ConversationAnswered,
  type ConversationCreated,
  canTransitionAgentRun,
  computeLimitBackoff,
  type DispatchDropped,
  type DispatchQueued,
  describeConversationParty,
  type EngineEvent,
  type ErrorEntry,
  failureReasonToRunStatus,
  type ImplementorCompleted,
  type ImplementorFailed,
  type ImplementorStarted,
  isAccountLimit,
  isAgentRunActive,
  isLimitReason,
  type LimitReason,
  type PlannerCompleted,
  type PlannerFailed,
  type PlannerStarted,
  parkingKey,
  type ReviewerCompleted,
  type ReviewerFailed,
  type ReviewerStarted,
  type Revision,
  type RevisionChanged,
  type RuntimeParking,
  type SpecChanged,
  toSummaryLine,
  type UserCancelledRun,
  type WorkItemChanged,
} from '../../domain/index.ts';
import { parsePatchFiles } from '../../shared/parse-patch-files.ts';
import { applyFeedbackUpdate } from './apply-feedback-update.ts';
import { applyMergeQueueUpdate } from './apply-merge-queue-update.ts';
import { applyProposalUpdate } from './apply-proposal-update.ts';
import { applyQuestionsUpdate, withoutWaitingOnResume } from './apply-questions-update.ts';
import { applyTaskContextUpdate } from './apply-task-context-update.ts';
import { buildDispatchKey } from './dispatch-key.ts';
import {
  type EngineState,
  type FailureRecord,
  failureKey,
  MAX_ERROR_ENTRIES,
  type QueuedDispatch,
  UNNAMED_RUNTIME,
} from './engine-state.ts';
import { isPlainDataEqual } from './is-plain-data-equal.ts';
import { pruneFinishedRuns } from './prune-finished-runs.ts';

export interface StateUpdate {
  state: EngineState;
  /** Events that could not be applied (unknown session, invalid run transition, …); the caller logs them. */
  warnings: string[];
}

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
  return withQueue === update.state ? update : { ...update, state: withQueue };
}

function applyEventUpdate(state: EngineState, event: EngineEvent): StateUpdate {
  switch (event.type) {
    case 'workItemChanged':
      return applyWorkItemChanged(state, event);
    case 'revisionChanged':
      return applyRevisionChanged(state, event);
    case 'specChanged':
      return applySpecChanged(state, event);

    case 'plannerRequested':
      return addRequestedRun(withoutWaitingOnResume(state, event), event.type, {
        ...newRunFields(event.sessionID, event.at, event.sessionNumber),
        ...(event.account !== undefined && { account: event.account }),
        role: 'planner',
        specPaths: event.specPaths,
        specSHAs: event.specSHAs,
        ...(event.questionsItemID !== undefined && { questionsItemID: event.questionsItemID }),
        plannedBefore: pickKeys(state.lastPlannedSHAs, event.specPaths),
        ...(event.revises !== undefined && { mode: 'plan-revision' as const, revises: event.revises }),
      });
    case 'implementorRequested':
      return addRequestedRun(withoutWaitingOnResume(state, event), event.type, {
        ...newRunFields(event.sessionID, event.at, event.sessionNumber),
        ...(event.account !== undefined && { account: event.account }),
        role: 'implementor',
        workItemID: event.workItemID,
        branchName: event.branchName,
        ...(event.estimatedFiles !== undefined && { estimatedFiles: event.estimatedFiles }),
        ...(event.mode !== undefined && { mode: event.mode }),
        ...(event.model !== undefined && { model: event.model }),
        ...(event.modelReason !== undefined && { modelReason: event.modelReason }),
      });
    case 'reviewerRequested':
      return addRequestedRun(withoutWaitingOnResume(state, event), event.type, {
        ...newRunFields(event.sessionID, event.at, event.sessionNumber),
        ...(event.account !== undefined && { account: event.account }),
        role: 'reviewer',
        workItemID: event.workItemID,
        revisionID: event.revisionID,
      });

    case 'plannerStarted':
      return startRun(state, event, 'planner');
    case 'implementorStarted':
      return startRun(state, event, 'implementor');
    case 'reviewerStarted':
      return startRun(state, event, 'reviewer');

    case 'plannerCompleted':
      return completeRun(state, event, 'planner', (next, run) =>
        run.role === 'planner' ? recordPlannedSHAs(next, run.specPaths, run.specSHAs) : next,
      );
    case 'implementorCompleted':
      return completeRun(state, event, 'implementor', (next) =>
        recordChangedFiles(next, event.sessionID, event.result.patch),
      );
    case 'reviewerCompleted':
      return completeRun(state, event, 'reviewer', (next, run) =>
        run.role === 'reviewer'
          ? countReviewVerdict(next, run.workItemID, event.result.review.verdict)
          : next,
      );

    case 'plannerFailed':
      return failRun(state, event, 'planner');
    case 'implementorFailed':
      return failRun(state, event, 'implementor');
    case 'reviewerFailed':
      return failRun(state, event, 'reviewer');

    case 'agentAskedQuestions':
    case 'questionsAnswered':
    case 'questionsTimedOut':
    case 'waitingSessionDiscarded':
      return applyQuestionsUpdate(state, event, putFinishedRun);

    case 'commandRejected':
      // A duplicate request is the normal outcome of a burst of identical triggers, not an error.
      if (event.kind === 'duplicate') return unchanged(state);
      return unchanged(
        appendError(state, {
          at: event.at,
          source: 'command-executor',
          message: `${event.command.type} rejected (${event.kind}): ${event.reason}`,
          event,
        }),
      );
    case 'commandFailed':
      return unchanged(
        appendError(state, {
          at: event.at,
          source: 'command-executor',
          message: `${event.command.type} failed: ${event.error}`,
          event,
        }),
      );
    case 'errorRecorded':
      return unchanged(
        appendError(state, { at: event.at, source: event.source, message: event.message, event }),
      );

    case 'dispatchQueued':
      return unchanged(upsertQueuedDispatch(state, event));
    case 'dispatchDropped':
      return unchanged(dropQueuedDispatch(state, event));

    case 'agentUsageReported':
      return recordLiveUsage(state, event);
    case 'workItemOverBudget':
      // Handlers park the item; the state learns of it through the item's own change.
      return unchanged(state);
    case 'budgetPauseChanged':
      return unchanged(
        isPlainDataEqual(state.budgetPause, event.pause) ? state : { ...state, budgetPause: event.pause },
      );

    case 'userCancelledRun':
      return markCancelledByUser(state, event);
    case 'userRequestedImplementorRun':
      // A human asking again gives the item a fresh attempt budget.
      return unchanged(
        withFailures(state, omitKeys(state.failures, [failureKey('implementor', event.workItemID)])),
      );
    case 'userRequestedReviewerRun':
      return unchanged(
        withFailures(state, omitKeys(state.failures, [failureKey('reviewer', event.workItemID)])),
      );
    case 'userTransitionedStatus':
      return unchanged(withoutItemCounters(state, event.workItemID));
    case 'mergeQueueStepped':
      // applyMergeQueueUpdate records a conflict; the step's other results come as their own events.
      return unchanged(state);
    case 'userRequestedMerge':
      // Nothing to record: the merge's own result events (or its rejection) change the state.
      return unchanged(state);
    case 'userRequestedPlannerRun':
      return unchanged(withFailures(state, omitKeys(state.failures, [failureKey('planner')])));
    case 'revisionFeedbackReceived':
    case 'revisionFeedbackAnswered':
      // applyFeedbackUpdate records them.
      return unchanged(state);
    case 'agentNoted':
      return recordSummary(state, event);
    case 'conversationCreated':
    case 'conversationAnswered':
      // The broker routes them and the store keeps them; the state shows the open one on each run.
      return recordConversation(state, event);
    case 'accountSwitched':
      // The run records its account from its *Requested event; this one is for people (progress, history).
      return unchanged(state);
    case 'proposalCreated':
    case 'proposalDecided':
    case 'proposalStale':
      return applyProposalUpdate(state, event);
    case 'modeResultApplied':
      // applyTaskContextUpdate gives each fix item the investigation's report.
      return unchanged(state);

    default: {
      // Compile-time exhaustiveness: a new event type without a case makes `event` not `never` here.
      const unhandled: never = event;
      throw new Error(`applyStateUpdate: unhandled event ${JSON.stringify(unhandled)}`);
    }
  }
}

// --- results ----------------------------------------------------------------------------------------

function unchanged(state: EngineState): StateUpdate {
  return { state, warnings: [] };
}

function rejected(state: EngineState, warning: string): StateUpdate {
  return { state, warnings: [warning] };
}

// --- immutable record helpers -----------------------------------------------------------------------

/** The record without `keys`; the same object when none of them is present. */
function omitKeys<T>(record: Record<string, T>, keys: readonly string[]): Record<string, T> {
  if (!keys.some((key) => Object.hasOwn(record, key))) return record;
  const copy = { ...record };
  for (const key of keys) delete copy[key];
  return copy;
}

/** The record with `key` set; the same object when it already holds an equal value. */
function setKey<T>(record: Record<string, T>, key: string, value: T): Record<string, T> {
  if (Object.hasOwn(record, key) && isPlainDataEqual(record[key], value)) return record;
  return { ...record, [key]: value };
}

function withFailures(state: EngineState, failures: EngineState['failures']): EngineState {
  return failures === state.failures ? state : { ...state, failures };
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

function newRunFields(sessionID: string, at: number, sessionNumber?: number) {
  return {
    ...(sessionNumber !== undefined && { sessionNumber }),
    sessionID,
    status: 'requested' as const,
    logFilePath: null,
    error: null,
    requestedAt: at,
    endedAt: null,
    usage: null,
    cancelRequestedBy: null,
  };
}

function addRequestedRun(state: EngineState, eventType: string, run: AgentRun): StateUpdate {
  if (Object.hasOwn(state.agentRuns, run.sessionID)) {
    return rejected(state, `${eventType}: session ${run.sessionID} already exists`);
  }
  // The request left the queue (if it waited there) the moment it was started.
  const key = buildDispatchKey(run);
  const dispatchQueue = state.dispatchQueue.some((entry) => entry.key === key)
    ? state.dispatchQueue.filter((entry) => entry.key !== key)
    : state.dispatchQueue;
  const accountsLastUsed =
    run.account === undefined || (state.accountsLastUsed[run.account] ?? -1) >= run.requestedAt
      ? state.accountsLastUsed
      : { ...state.accountsLastUsed, [run.account]: run.requestedAt };
  return unchanged({
    ...state,
    agentRuns: { ...state.agentRuns, [run.sessionID]: run },
    dispatchQueue,
    accountsLastUsed,
  });
}

type RunLookup = { found: true; run: AgentRun } | { found: false; warning: string };

/** The run the event is about, if it exists, has the event's role and may move to `to`. */
function lookUpTransition(
  state: EngineState,
  event: { type: string; sessionID: string },
  role: AgentRole,
  to: AgentRunStatus,
): RunLookup {
  const run = state.agentRuns[event.sessionID];
  if (run === undefined)
    return { found: false, warning: `${event.type}: unknown session ${event.sessionID}` };
  if (run.role !== role) {
    return { found: false, warning: `${event.type}: session ${event.sessionID} is a ${run.role} run` };
  }
  if (!canTransitionAgentRun(run.status, to)) {
    return {
      found: false,
      warning: `${event.type}: invalid run transition ${run.status} → ${to} for session ${event.sessionID}`,
    };
  }
  return { found: true, run };
}

function putRun(state: EngineState, run: AgentRun): EngineState {
  return { ...state, agentRuns: { ...state.agentRuns, [run.sessionID]: run } };
}

/** Stores a run that just ended, dropping the oldest finished runs beyond the history bound. */
function putFinishedRun(state: EngineState, run: AgentRun): EngineState {
  return { ...state, agentRuns: pruneFinishedRuns({ ...state.agentRuns, [run.sessionID]: run }) };
}

function runFailureKey(run: AgentRun): string {
  return run.role === 'planner' ? failureKey('planner') : failureKey(run.role, run.workItemID);
}

function startRun(
  state: EngineState,
  event: PlannerStarted | ImplementorStarted | ReviewerStarted,
  role: AgentRole,
): StateUpdate {
  const lookup = lookUpTransition(state, event, role, 'running');
  if (!lookup.found) return rejected(state, lookup.warning);
  return unchanged(
    putRun(state, {
      ...lookup.run,
      status: 'running',
      logFilePath: event.logFilePath ?? lookup.run.logFilePath,
      ...(event.runtime !== undefined && { runtime: event.runtime }),
    }),
  );
}

function completeRun(
  state: EngineState,
  event: PlannerCompleted | ImplementorCompleted | ReviewerCompleted,
  role: AgentRole,
  applyRoleEffects: (state: EngineState, run: AgentRun) => EngineState,
): StateUpdate {
  const lookup = lookUpTransition(state, event, role, 'completed');
  if (!lookup.found) return rejected(state, lookup.warning);
  const run: AgentRun = {
    ...lookup.run,
    status: 'completed',
    // A null path at the end means "not reported again", not "no log": keep the one from the start.
    logFilePath: event.logFilePath ?? lookup.run.logFilePath,
    usage: event.usage,
    endedAt: event.at,
  };
  // A success ends the streak of consecutive failures, and shows its runtime and account are not limited.
  const next = liftParkings(
    withFailures(putFinishedRun(state, run), omitKeys(state.failures, [runFailureKey(run)])),
    run,
  );
  return unchanged(applyRoleEffects(next, run));
}

/** Keeps the files a completed implementor's patch changed beside the scheduler's estimate (issue #30 §4). */
function recordChangedFiles(state: EngineState, sessionID: string, patch: string | null): EngineState {
  const run = state.agentRuns[sessionID];
  if (run?.role !== 'implementor' || patch === null) return state;
  const changedFiles = [...new Set(parsePatchFiles(patch).map((file) => file.path))];
  return { ...state, agentRuns: { ...state.agentRuns, [sessionID]: { ...run, changedFiles } } };
}

/** The entries of `record` under `keys` (those it has). */
function pickKeys(record: Readonly<Record<string, string>>, keys: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const key of keys) {
    const value = record[key];
    if (value !== undefined) picked[key] = value;
  }
  return picked;
}

/** Records the SHAs the planner was given, so edits made while it ran are still planned afterwards. */
function recordPlannedSHAs(
  state: EngineState,
  specPaths: readonly string[],
  specSHAs: Readonly<Record<string, string>>,
): EngineState {
  let lastPlannedSHAs = state.lastPlannedSHAs;
  for (const path of specPaths) {
    const sha = specSHAs[path];
    if (sha !== undefined) lastPlannedSHAs = setKey(lastPlannedSHAs, path, sha);
  }
  return lastPlannedSHAs === state.lastPlannedSHAs ? state : { ...state, lastPlannedSHAs };
}

function countReviewVerdict(
  state: EngineState,
  workItemID: string,
  verdict: ReviewerCompleted['result']['review']['verdict'],
): EngineState {
  if (verdict === 'approve') {
    // Approved: both rework budgets start afresh should the item ever come back.
    const reviewRounds = omitKeys(state.reviewRounds, [workItemID]);
    const checkRounds = omitKeys(state.checkRounds, [workItemID]);
    if (reviewRounds === state.reviewRounds && checkRounds === state.checkRounds) return state;
    return { ...state, reviewRounds, checkRounds };
  }
  return {
    ...state,
    reviewRounds: { ...state.reviewRounds, [workItemID]: (state.reviewRounds[workItemID] ?? 0) + 1 },
  };
}

function failRun(
  state: EngineState,
  event: PlannerFailed | ImplementorFailed | ReviewerFailed,
  role: AgentRole,
): StateUpdate {
  const lookup = lookUpTransition(state, event, role, failureReasonToRunStatus(event.reason));
  if (!lookup.found) return rejected(state, lookup.warning);
  const run: AgentRun = {
    ...lookup.run,
    status: failureReasonToRunStatus(event.reason),
    failureReason: event.reason,
    error: event.error,
    logFilePath: event.logFilePath ?? lookup.run.logFilePath,
    usage: event.usage,
    endedAt: event.at,
  };
  const next = putFinishedRun(state, run);
  // A cancel (by the user, at shutdown or by a budget cap) says nothing about whether the work can succeed;
  // a run refused at dispatch (its runtime unavailable) never started: neither uses an attempt.
  if (event.reason === 'cancelled' || event.reason === 'budget' || event.reason === 'unavailable')
    return unchanged(next);
  // Nor does a provider limit: it parks the runtime or account instead of counting an attempt.
  if (isLimitReason(event.reason)) return unchanged(parkForLimit(next, run, event, event.reason));
  const key = runFailureKey(run);
  const record: FailureRecord = {
    attempts: (state.failures[key]?.attempts ?? 0) + 1,
    lastReason: event.reason,
    lastError: event.error,
    lastFailedAt: event.at,
    lastSessionID: event.sessionID,
  };
  return unchanged({ ...next, failures: { ...state.failures, [key]: record } });
}

/**
 * Parks the run's account (rate and usage limits: its quota) or its runtime (an overload, or no account)
 * until the provider's reset, else for a backoff growing with the limits hit in a row.
 */
function parkForLimit(
  state: EngineState,
  run: AgentRun,
  event: PlannerFailed | ImplementorFailed | ReviewerFailed,
  reason: LimitReason,
): EngineState {
  const runtime = run.runtime ?? UNNAMED_RUNTIME;
  const account = run.account !== undefined && isAccountLimit(reason) ? run.account : null;
  const key = parkingKey(runtime, account);
  const hits = (state.parkings[key]?.hits ?? 0) + 1;
  const resetsAt = event.resetsAt ?? null;
  const parking: RuntimeParking = {
    key,
    runtime,
    account,
    reason,
    until: resetsAt !== null && resetsAt > event.at ? resetsAt : event.at + computeLimitBackoff(hits),
    since: event.at,
    hits,
    message: event.error.slice(0, 300),
  };
  return { ...state, parkings: { ...state.parkings, [key]: parking } };
}

/** A run completed: its runtime and account answer again, so their parkings (and backoff streaks) end. */
function liftParkings(state: EngineState, run: AgentRun): EngineState {
  const runtime = run.runtime ?? UNNAMED_RUNTIME;
  const keys = [parkingKey(runtime, null)];
  if (run.account !== undefined) keys.push(parkingKey(runtime, run.account));
  const parkings = omitKeys(state.parkings, keys);
  return parkings === state.parkings ? state : { ...state, parkings };
}

/** A running run's usage so far (the runtime's live signal); ignored once the run has ended. */
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

// --- errors and the dispatch queue ------------------------------------------------------------------

function appendError(state: EngineState, entry: ErrorEntry): EngineState {
  const errors = [...state.errors, entry];
  return { ...state, errors: errors.length > MAX_ERROR_ENTRIES ? errors.slice(-MAX_ERROR_ENTRIES) : errors };
}

function upsertQueuedDispatch(state: EngineState, event: DispatchQueued): EngineState {
  const key = buildDispatchKey(event.command);
  const index = state.dispatchQueue.findIndex((queued) => queued.key === key);
  const existing = index === -1 ? undefined : state.dispatchQueue[index];
  const entry: QueuedDispatch = {
    key,
    command: event.command,
    reason: event.reason,
    ...(event.detail !== undefined && { detail: event.detail }),
    notBefore: event.notBefore,
    priority: event.priority,
    // Re-queuing (e.g. capacity → backoff) keeps the original age, so the entry keeps its place in line.
    queuedAt: existing?.queuedAt ?? event.at,
  };
  if (existing === undefined) return { ...state, dispatchQueue: [...state.dispatchQueue, entry] };
  if (isPlainDataEqual(existing, entry)) return state;
  return { ...state, dispatchQueue: state.dispatchQueue.map((queued, i) => (i === index ? entry : queued)) };
}

function dropQueuedDispatch(state: EngineState, event: DispatchDropped): EngineState {
  const key = buildDispatchKey(event.command);
  if (!state.dispatchQueue.some((entry) => entry.key === key)) return state;
  return { ...state, dispatchQueue: state.dispatchQueue.filter((entry) => entry.key !== key) };
}
