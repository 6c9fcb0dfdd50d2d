import { type BudgetPause, describeBudgetPause } from '../../domain/index.ts';
import {
  type EngineState,
  getWorkWaitingOnHuman,
  type WaitingItem,
  type WorkWaitingOnHuman,
} from '../../engine/state-store/index.ts';
import { shortErrorCause } from './short-error-cause.ts';

export interface IdleSummary {
  /** The line `--until-idle` prints last. */
  line: string;
  /** The same facts for `--json` (the last JSON line). */
  data: {
    type: 'idle';
    idle: boolean;
    errors: number;
    waitingOnHuman: Array<WaitingItem>;
    plannerOutOfAttempts: { attempts: number; lastError: string } | null;
    /** Dispatch paused by the day's or month's budget (its requests wait for the next period). */
    budgetPause: BudgetPause | null;
    /** Approved items whose revisions wait for a human to merge them (not a failure). */
    awaitingMerge: Array<{ workItemID: string; title: string }>;
  };
  /** 0 only when idle with no error recorded, nothing failed or parked and no budget pause; else 1. */
  exitCode: 0 | 1;
}

/**
 * How `flotilla run --until-idle` ends: idle never hides stuck work. Names every item waiting on a human
 * (needs-refinement, blocked, red checks) and a planner out of attempts; any of them, an error recorded, or a
 * stop before idle makes the exit code 1. Then the next step for approved items (merging them, which is not a
 * failure) and what the run's agents cost (`spend`, from `createSpendTally`).
 */
export function describeIdleSummary(
  state: EngineState,
  { idle, maxAttempts, spend = null }: { idle: boolean; maxAttempts: number; spend?: string | null },
): IdleSummary {
  const errors = state.errors.length;
  const waiting = getWorkWaitingOnHuman(state, { maxAttempts });
  const planner = waiting.plannerOutOfAttempts;
  const stuck = waiting.items.length > 0 || planner !== null;
  let line = idle ? `idle${errors ? ` with ${errors} error(s) recorded` : ''}` : 'stopped before idle';
  if (stuck) line += ` — waiting on a human: ${describeWaiting(waiting, maxAttempts)}`;
  const pause = state.budgetPause ?? null;
  if (pause !== null) line += ` — ${describeBudgetPause(pause)}`;
  const awaitingMerge = Object.values(state.workItems)
    .filter((item) => item.status === 'approved')
    .sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id))
    .map((item) => ({ workItemID: item.id, title: item.title }));
  if (awaitingMerge.length > 0) line += ` — ${describeAwaitingMerge(awaitingMerge)}`;
  if (spend !== null) line += ` — this run: ${spend}`;
  return {
    line,
    data: {
      type: 'idle',
      idle,
      errors,
      waitingOnHuman: waiting.items,
      plannerOutOfAttempts: planner && { attempts: planner.attempts, lastError: planner.lastError },
      budgetPause: pause,
      awaitingMerge,
    },
    exitCode: idle && errors === 0 && !stuck && pause === null ? 0 : 1,
  };
}

/** `#1 approved, waiting for you to merge it: flotilla merge 1` (one item), or the count and each command. */
function describeAwaitingMerge(items: ReadonlyArray<{ workItemID: string }>): string {
  const commands = items.map((item) => `flotilla merge ${item.workItemID}`).join(', ');
  return items.length === 1
    ? `#${items[0]?.workItemID} approved, waiting for you to merge it: ${commands}`
    : `${items.length} items approved, waiting for you to merge them: ${commands}`;
}

function describeWaiting({ items, plannerOutOfAttempts }: WorkWaitingOnHuman, maxAttempts: number): string {
  const parts = items.map((item) => `#${item.workItemID} "${item.title}" ${describeReason(item)}`);
  if (plannerOutOfAttempts !== null) {
    const firstLine = plannerOutOfAttempts.lastError.split('\n')[0] ?? '';
    const { attempts } = plannerOutOfAttempts;
    parts.push(
      // Stopped before its last attempt: its failure would repeat on every retry.
      attempts < maxAttempts
        ? `the planner failed, and a retry would fail the same way (${firstLine})`
        : `the planner failed all ${attempts} attempts (${firstLine})`,
    );
  }
  return parts.join(', ');
}

function describeReason(item: WaitingItem): string {
  switch (item.reason) {
    case 'red-checks':
      return 'in review with red checks';
    case 'needs-refinement':
      return item.checkRounds > 0
        ? `needs-refinement (checks failed ${item.checkRounds} time${item.checkRounds === 1 ? '' : 's'})`
        : 'needs-refinement';
    case 'blocked':
      return item.lastError === undefined ? 'blocked' : `blocked: ${shortErrorCause(item.lastError)}`;
    case 'waiting-for-input':
      return "waiting for answers to its agent's questions";
    case 'proposal':
      return `a plan waiting for you: flotilla proposals show ${item.workItemID}, then accept or reject`;
  }
}
