import { isPermanentFailure, type WorkItem } from '../../../domain/index.ts';
import { type EngineState, type FailureRecord, failureKey } from '../engine-state.ts';

/** Why an item cannot move until a human acts. */
export type WaitingReason = 'needs-refinement' | 'blocked' | 'red-checks' | 'waiting-for-input' | 'proposal';

export interface WaitingItem {
  workItemID: string;
  title: string;
  reason: WaitingReason;
  /** Failed checks seen on its revision since it was last approved or reset (0 if none). */
  checkRounds: number;
  /** A blocked item's last run failure (implementor or reviewer), when one blocked it: the real cause. */
  lastError?: string;
}

export interface WorkWaitingOnHuman {
  items: WaitingItem[];
  /**
   * The planner's failure streak once nothing retries it — it reached maxAttempts, or its last failure would
   * repeat on every retry (isPermanentFailure); else null.
   */
  plannerOutOfAttempts: FailureRecord | null;
}

/**
 * Work the engine will not move on its own (idle must never hide it): items parked in needs-refinement or
 * blocked, items in review whose revision's checks are red (no reviewer runs on them), a plan proposal
 * waiting for a decision, and a planner that failed all its attempts. Oldest item id first.
 */
export function getWorkWaitingOnHuman(
  state: EngineState,
  { maxAttempts }: { maxAttempts: number },
): WorkWaitingOnHuman {
  const items: WaitingItem[] = [];
  for (const item of Object.values(state.workItems)) {
    const reason = waitingReason(state, item);
    if (reason === null) continue;
    const failure = reason === 'blocked' ? lastFailureOf(state, item.id) : undefined;
    items.push({
      workItemID: item.id,
      title: item.title,
      reason,
      checkRounds: state.checkRounds[item.id] ?? 0,
      ...(failure !== undefined && { lastError: failure.lastError }),
    });
  }
  items.sort((a, b) => compareIDs(a.workItemID, b.workItemID));
  const planner = state.failures[failureKey('planner')];
  return {
    items,
    plannerOutOfAttempts:
      planner !== undefined &&
      (planner.attempts >= maxAttempts ||
        isPermanentFailure(planner.lastError, state.agentRuns[planner.lastSessionID]?.runtime))
        ? planner
        : null,
  };
}

/** The item's most recent implementor or reviewer failure streak, if any. */
function lastFailureOf(state: EngineState, workItemID: string): FailureRecord | undefined {
  const records = [
    state.failures[failureKey('implementor', workItemID)],
    state.failures[failureKey('reviewer', workItemID)],
  ].filter((record): record is FailureRecord => record !== undefined);
  return records.sort((a, b) => b.lastFailedAt - a.lastFailedAt)[0];
}

function waitingReason(state: EngineState, item: WorkItem): WaitingReason | null {
  // A plan waiting for `/accept` or `/reject` (issue #29).
  if (item.kind === 'proposal' && state.proposals[item.id]?.status === 'pending') return 'proposal';
  if (item.status === 'needs-refinement' || item.status === 'blocked' || item.status === 'waiting-for-input')
    return item.status;
  if (item.status !== 'review' || item.linkedRevision === null) return null;
  return state.revisions[item.linkedRevision]?.pipeline?.status === 'failure' ? 'red-checks' : null;
}

/** Numeric ids in numeric order (2 before 10), others after, by text. */
function compareIDs(a: string, b: string): number {
  const numeric = /^\d+$/;
  if (numeric.test(a) && numeric.test(b)) return Number(a) - Number(b);
  return a.localeCompare(b);
}
