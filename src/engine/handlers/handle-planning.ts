import {
  type EngineCommand,
  findPendingProposal,
  isPermanentFailure,
  type PlannerCompleted,
  type WaitingSession,
} from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { getActivePlannerRun, getApprovedSpecSHAs } from '../state-store/selectors/index.ts';
import type { Handler } from './handler.ts';
import { requestPlanningIfNeeded } from './request-planning-if-needed.ts';

/** Marks the engine's comments on a planner's questions item, so they are never read as answers. */
const SUPERSEDED_COMMENT_MARKER = '<!-- flotilla:questions-superseded -->';
const ENDED_COMMENT_MARKER = '<!-- flotilla:planner-ended -->';

/**
 * specChanged → plan when something needs it and no planner is active; plannerCompleted → apply the result
 * and plan again if specs changed meanwhile; plannerFailed (error/timeout) below the cap → plan again.
 * A planner waiting for answers is the one planning: nothing else plans meanwhile, and a change to the
 * approved specs supersedes its questions (item closed, session discarded, planning starts again with the
 * new versions). A resumed planner's questions item is closed when the run ends, however it ends.
 */
export const handlePlanning: Handler = (event, state, config) => {
  switch (event.type) {
    case 'specChanged':
      return reactToSpecChange(state, event.filePath);
    case 'waitingSessionDiscarded':
      if (event.replan !== true || getActivePlannerRun(state) !== null) return [];
      return requestPlanningIfNeeded(state);
    case 'plannerCompleted': {
      const questionsItemID = questionsItemOf(state, event.sessionID);
      if (config.approval?.plans === 'required')
        return [...proposePlan(event, state, questionsItemID), ...requestPlanningIfNeeded(state)];
      return [
        {
          type: 'applyPlannerResult',
          result: event.result,
          sessionID: event.sessionID,
          ...(questionsItemID !== undefined && { questionsItemID }),
        },
        ...requestPlanningIfNeeded(state),
      ];
    }
    case 'plannerFailed':
      return [
        ...closeQuestionsOfFailedRun(state, event.sessionID, event.error),
        ...retryPlanning(event, state, config),
      ];
    default:
      return [];
  }
};

/**
 * A spec changed: a pending proposal it makes stale goes first; a waiting planner's questions are superseded
 * (closed, session discarded, planning again); otherwise plan when something needs it and no planner runs.
 */
function reactToSpecChange(state: EngineState, filePath: string): EngineCommand[] {
  const stale = staleProposal(state, filePath);
  if (stale.length > 0) return [...stale, ...requestPlanningIfNeeded(state)];
  if (getActivePlannerRun(state) !== null) return [];
  const waiting = findWaitingPlanner(state);
  if (waiting === undefined) return requestPlanningIfNeeded(state);
  // One poll reports several specs: only the first changed path's event acts, so it acts once.
  if (waiting.answers !== null || firstChangedSpec(state, waiting) !== filePath) return [];
  return [
    {
      type: 'commentOnWorkItem',
      workItemID: waiting.workItemID,
      body:
        `${SUPERSEDED_COMMENT_MARKER}\nThe approved specs changed while the planner waited (\`${filePath}\`` +
        '), so these questions are about an older version: its session was removed and planning starts ' +
        'again with the new version.',
    },
    { type: 'discardWaitingSession', workItemID: waiting.workItemID, replan: true },
    {
      type: 'transitionWorkItemStatus',
      workItemID: waiting.workItemID,
      newStatus: 'closed',
      cause: 'planner',
    },
  ];
}

/**
 * `approval.plans: required`: the result becomes a proposal instead of work items. A proposal still pending
 * is replaced (there is never more than one): it goes stale with the planned SHAs kept, as this newer plan
 * recorded them.
 */
function proposePlan(
  event: PlannerCompleted,
  state: EngineState,
  questionsItemID: string | undefined,
): EngineCommand[] {
  const run = state.agentRuns[event.sessionID];
  if (run?.role !== 'planner') return [];
  const pending = findPendingProposal(state.proposals);
  return [
    ...(pending === undefined
      ? []
      : [
          {
            type: 'markProposalStale' as const,
            proposalID: pending.id,
            reason: 'a newer plan replaced it',
            restorePlanned: false,
          },
        ]),
    {
      type: 'proposePlan',
      sessionID: run.sessionID,
      result: event.result,
      specSHAs: run.specSHAs,
      basePlannedSHAs: run.plannedBefore ?? {},
      revises: run.revises ?? null,
      ...(questionsItemID !== undefined && { questionsItemID }),
    },
  ];
}

/**
 * A spec changed while a proposal waits: when the approved specs no longer match what it was planned from, it
 * goes stale (its planned SHAs return to before it) and the specs are planned again. Acts once: on the event
 * of the first changed path.
 */
function staleProposal(state: EngineState, filePath: string): EngineCommand[] {
  const pending = findPendingProposal(state.proposals);
  if (pending === undefined) return [];
  const approved = getApprovedSpecSHAs(state);
  const paths = [...new Set([...Object.keys(pending.specSHAs), ...Object.keys(approved)])].sort();
  const changed = paths.find((path) => pending.specSHAs[path] !== approved[path]);
  if (changed !== filePath) return [];
  return [
    {
      type: 'markProposalStale',
      proposalID: pending.id,
      reason: `the approved specs changed while it waited (\`${filePath}\`)`,
      restorePlanned: true,
    },
  ];
}

function retryPlanning(
  event: Extract<Parameters<Handler>[0], { type: 'plannerFailed' }>,
  state: EngineState,
  config: Parameters<Handler>[2],
): EngineCommand[] {
  // Refused at dispatch (the planner's runtime is unavailable): retrying would be refused again.
  if (event.reason === 'cancelled' || event.reason === 'unavailable') return [];
  // Stopped at the per-run cap: planning again would stop the same way. The day's or month's cap: the
  // request waits in the paused dispatch.
  if (event.reason === 'budget') {
    return event.budgetStop?.scope === 'run' ? [] : requestPlanningIfNeeded(state);
  }
  const attempts = state.failures.planner?.attempts ?? 0;
  // Without credentials, with a scenario mistake or a missing file every attempt fails the same way: stop
  // at the first.
  const runtime = state.agentRuns[event.sessionID]?.runtime;
  if (attempts >= config.maxAttempts || isPermanentFailure(event.error, runtime)) return [];
  // The scheduler applies the backoff; the request carries the corpus as it is now.
  return requestPlanningIfNeeded(state);
}

function findWaitingPlanner(state: EngineState): WaitingSession | undefined {
  return Object.values(state.waitingForInput).find((waiting) => waiting.role === 'planner');
}

/** The first spec path (in order) whose approved version differs from what the waiting planner was given. */
function firstChangedSpec(state: EngineState, waiting: WaitingSession): string | undefined {
  const given = waiting.specSHAs ?? {};
  const approved = getApprovedSpecSHAs(state);
  const paths = [...new Set([...Object.keys(given), ...Object.keys(approved)])].sort();
  return paths.find((path) => given[path] !== approved[path]);
}

function questionsItemOf(state: EngineState, sessionID: string): string | undefined {
  const run = state.agentRuns[sessionID];
  return run?.role === 'planner' ? run.questionsItemID : undefined;
}

/** A resumed planner that ends without a result closes its questions item, saying why. */
function closeQuestionsOfFailedRun(state: EngineState, sessionID: string, error: string): EngineCommand[] {
  const questionsItemID = questionsItemOf(state, sessionID);
  if (questionsItemID === undefined) return [];
  const item = state.workItems[questionsItemID];
  if (item === undefined || item.status === 'closed') return [];
  return [
    {
      type: 'commentOnWorkItem',
      workItemID: questionsItemID,
      body:
        `${ENDED_COMMENT_MARKER}\nThe planner's session that took your answers ended without a result ` +
        `(${error}); these questions are closed. The next planner run starts a new session (and may ask again).`,
    },
    { type: 'transitionWorkItemStatus', workItemID: questionsItemID, newStatus: 'closed', cause: 'planner' },
  ];
}
