import {
  type BudgetStop,
  type EngineCommand,
  type ImplementorFailed,
  isLimitReason,
  isPermanentFailure,
  type ReviewerFailed,
} from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { getFailureRecord } from '../state-store/selectors/index.ts';
import { buildOverBudgetComment } from './comments/build-over-budget-comment.ts';
import { buildRetriesExhaustedComment } from './comments/build-retries-exhausted-comment.ts';
import { buildRunCancelledComment } from './comments/build-run-cancelled-comment.ts';
import { buildRuntimeUnavailableComment } from './comments/build-runtime-unavailable-comment.ts';
import type { HandlerConfig } from './handler.ts';

/**
 * When a failed implementor or reviewer run must park its work item as `blocked` (with a comment saying
 * why): the user cancelled it, a per-run or per-item budget cap stopped it, its runtime was refused at
 * dispatch, or it was the last allowed attempt. Null when the run should simply be
 * retried (or, after a shutdown cancel, released) — each handler decides how.
 */
export function buildParkingCommands(
  event: ImplementorFailed | ReviewerFailed,
  state: EngineState,
  config: HandlerConfig,
): EngineCommand[] | null {
  const role = event.type === 'implementorFailed' ? 'implementor' : 'reviewer';
  const { workItemID } = event;
  const stop = event.budgetStop;
  if (event.reason === 'budget') {
    // The day's or month's cap: back to pending, where the paused dispatch waits for the budget.
    if (stop === undefined || stop.scope === 'day' || stop.scope === 'month') return null;
    return parkOverBudget(workItemID, role, { ...stop, scope: stop.scope });
  }
  // Its runtime was refused at dispatch: every retry would be refused the same way until a human acts.
  if (event.reason === 'unavailable') {
    return [
      { type: 'transitionWorkItemStatus', workItemID, newStatus: 'blocked', cause: 'runtime-unavailable' },
      {
        type: 'commentOnWorkItem',
        workItemID,
        body: buildRuntimeUnavailableComment({ role, workItemID, error: event.error }),
      },
    ];
  }
  if (event.reason === 'cancelled') {
    if (state.agentRuns[event.sessionID]?.cancelRequestedBy !== 'user') return null;
    return [
      { type: 'transitionWorkItemStatus', workItemID, newStatus: 'blocked', cause: 'run-cancelled' },
      { type: 'commentOnWorkItem', workItemID, body: buildRunCancelledComment(role, event.sessionID) },
    ];
  }
  // A provider limit parked the runtime instead: the item waits for it, whatever earlier attempts failed.
  if (isLimitReason(event.reason)) return null;
  return parkIfExhausted(event, state, config, role);
}

/** A per-run or per-item cap stopped the run: blocked, with what it spent against the cap. */
function parkOverBudget(
  workItemID: string,
  role: 'implementor' | 'reviewer',
  stop: BudgetStop & { scope: 'run' | 'item' },
): EngineCommand[] {
  return [
    { type: 'transitionWorkItemStatus', workItemID, newStatus: 'blocked', cause: 'over-budget' },
    {
      type: 'commentOnWorkItem',
      workItemID,
      body: buildOverBudgetComment({
        workItemID,
        role,
        scope: stop.scope,
        spentUSD: stop.spentUSD,
        capUSD: stop.capUSD,
        estimateUSD: null,
      }),
    },
  ];
}

/** The last allowed attempt failed, or a failure every attempt would repeat: blocked; else null (retry). */
function parkIfExhausted(
  event: ImplementorFailed | ReviewerFailed,
  state: EngineState,
  config: HandlerConfig,
  role: 'implementor' | 'reviewer',
): EngineCommand[] | null {
  const { workItemID } = event;
  const failure = getFailureRecord(state, role, workItemID);
  // Without credentials, with a scenario mistake or a missing file every attempt fails the same way: park
  // at the first, saying so, rather than wait through the back-off of attempts that cannot succeed.
  const permanent = isPermanentFailure(event.error, state.agentRuns[event.sessionID]?.runtime);
  if (failure === null || (failure.attempts < config.maxAttempts && !permanent)) {
    return null;
  }
  return [
    { type: 'transitionWorkItemStatus', workItemID, newStatus: 'blocked', cause: 'retries-exhausted' },
    {
      type: 'commentOnWorkItem',
      workItemID,
      body: buildRetriesExhaustedComment({
        role,
        failure,
        maxAttempts: config.maxAttempts,
        permanent,
        logFilePath: state.agentRuns[failure.lastSessionID]?.logFilePath ?? null,
      }),
    },
  ];
}
