import {
  type AgentRole,
  type AgentRun,
  type AgentRunStatus,
  canTransitionAgentRun,
  computeLimitBackoff,
  failureReasonToRunStatus,
  type ImplementorCompleted,
  type ImplementorFailed,
  type ImplementorRequested,
  type ImplementorStarted,
  isAccountLimit,
  isLimitReason,
  type LimitReason,
  type PlannerCompleted,
  type PlannerFailed,
  type PlannerRequested,
  type PlannerStarted,
  parkingKey,
  type ReviewerCompleted,
  type ReviewerFailed,
  type ReviewerRequested,
  type ReviewerStarted,
  type RuntimeParking,
} from '../../domain/index.ts';
import { parsePatchFiles } from '../../shared/parse-patch-files.ts';
import { withoutWaitingOnResume } from './apply-questions-update.ts';
import { buildDispatchKey } from './dispatch-key.ts';
import { type EngineState, type FailureRecord, failureKey, UNNAMED_RUNTIME } from './engine-state.ts';
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

/** The events of an agent run's life: requested, started, completed, failed, for each role. */
export type RunEvent =
  | PlannerRequested
  | ImplementorRequested
  | ReviewerRequested
  | PlannerStarted
  | ImplementorStarted
  | ReviewerStarted
  | PlannerCompleted
  | ImplementorCompleted
  | ReviewerCompleted
  | PlannerFailed
  | ImplementorFailed
  | ReviewerFailed;

/**
 * The run part of applyStateUpdate: a requested run is recorded, then moves through its transitions; its end
 * counts failures, parks an exhausted runtime or account, and records what it produced (planned SHAs, changed
 * files, review verdicts).
 */
export function applyRunUpdate(state: EngineState, event: RunEvent): StateUpdate {
  switch (event.type) {
    case 'plannerRequested':
    case 'implementorRequested':
    case 'reviewerRequested':
      return addRequestedRun(
        withoutWaitingOnResume(state, event),
        event.type,
        buildRequestedRun(state, event),
      );

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
  }
}

/** The run a *Requested event records: requested, with what its role needs to start and to be resumed. */
function buildRequestedRun(
  state: EngineState,
  event: PlannerRequested | ImplementorRequested | ReviewerRequested,
): AgentRun {
  switch (event.type) {
    case 'plannerRequested':
      return {
        ...newRunFields(event.sessionID, event.at, event.sessionNumber),
        ...(event.account !== undefined && { account: event.account }),
        role: 'planner',
        specPaths: event.specPaths,
        specSHAs: event.specSHAs,
        ...(event.questionsItemID !== undefined && { questionsItemID: event.questionsItemID }),
        plannedBefore: pickKeys(state.lastPlannedSHAs, event.specPaths),
        ...(event.revises !== undefined && { mode: 'plan-revision' as const, revises: event.revises }),
      };
    case 'implementorRequested':
      return {
        ...newRunFields(event.sessionID, event.at, event.sessionNumber),
        ...(event.account !== undefined && { account: event.account }),
        role: 'implementor',
        workItemID: event.workItemID,
        branchName: event.branchName,
        ...(event.estimatedFiles !== undefined && { estimatedFiles: event.estimatedFiles }),
        ...(event.mode !== undefined && { mode: event.mode }),
        ...(event.mode === 'refine' && { bodyHash: state.workItems[event.workItemID]?.bodyHash ?? '' }),
        ...(event.model !== undefined && { model: event.model }),
        ...(event.modelReason !== undefined && { modelReason: event.modelReason }),
      };
    case 'reviewerRequested':
      return {
        ...newRunFields(event.sessionID, event.at, event.sessionNumber),
        ...(event.account !== undefined && { account: event.account }),
        role: 'reviewer',
        workItemID: event.workItemID,
        revisionID: event.revisionID,
      };
  }
}

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
