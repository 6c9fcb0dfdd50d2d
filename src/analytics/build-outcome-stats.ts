import { LIMIT_REASONS, SCRIPTED_RUNTIME } from '../domain/index.ts';
import { buildFileEstimateStats, type FileEstimateStats } from './build-file-estimate-stats.ts';
import { listLocalDays, localDayKey } from './local-days.ts';
import type { StatsItem, StatsRecords, StatsRun } from './stats-records.ts';

/**
 * Cost split the way the CLI shows it: `costUSD` is real spend; scripted runs' made-up cost is kept apart in
 * `scriptedCostUSD` and never added to it.
 */
export interface CostSplit {
  costUSD: number;
  scriptedCostUSD: number;
}

/** An approved or merged item: what it cost and how long and how many rounds it took. */
export interface ItemOutcome extends CostSplit {
  workItemID: string;
  title: string;
  outcome: 'approved' | 'merged';
  /** ISO; the latest approving review. Null for a merge without one (a status set by hand). */
  approvedAt: string | null;
  mergedAt: string | null;
  /** Implementor and reviewer runs of the item, every one (also before `since`). */
  runs: number;
  firstRunAt: string | null;
  /** From the item's first run to its approval / merge; null when either is unknown. */
  toApprovalMs: number | null;
  toMergeMs: number | null;
  /** Verdicts given (approved, changes requested, or a verdict later dismissed); comments are not rounds. */
  reviewRounds: number;
  /** The first verdict was an approval. */
  firstPassApproved: boolean;
  /** Heads whose checks finished (passed or failed), and how many of them failed. */
  checkRounds: number;
  checkFailures: number;
}

export interface FailureGroup extends CostSplit {
  /**
   * Failures: `error`, `timeout`, `validation`, `cancelled` (by the user), …; stops (`STOP_REASONS`):
   * `rate-limit`, `overloaded`, `usage-limit`, `budget`, `unavailable`, `shutdown` (Flotilla stopped).
   */
  reason: string;
  runs: number;
}

export interface SpendGroup extends CostSplit {
  /** The role, runtime, model or account; null when the run history does not record it. */
  key: string | null;
  runs: number;
  inputTokens: number;
  outputTokens: number;
}

export interface DayTrend extends CostSplit {
  /** Local calendar day, `YYYY-MM-DD`. */
  day: string;
  runs: number;
  failedRuns: number;
  stoppedRuns: number;
  /** Items approved that day (merged ones without an approving review count on their merge day). */
  itemsDone: number;
  itemsMerged: number;
}

export interface StatsTotals extends CostSplit {
  runs: number;
  /** Runs that ended without a result on account of the work: failed attempts. */
  failedRuns: number;
  /** Runs stopped by something else (a provider limit, a budget cap, …): never a failed attempt. */
  stoppedRuns: number;
  inputTokens: number;
  outputTokens: number;
  itemsDone: number;
  itemsMerged: number;
  /** Done items approved on their first review, over the done items that were reviewed; null: none. */
  firstPassApprovalRate: number | null;
  firstPassApproved: number;
  reviewedItems: number;
  /** Means over the done items; null when there are none. */
  costPerItemUSD: number | null;
  scriptedCostPerItemUSD: number | null;
  medianToApprovalMs: number | null;
  reviewRoundsPerItem: number | null;
  checkRoundsPerItem: number | null;
}

/** What `flotilla stats --json` prints (documented in src/cli/README.md; stable). */
export interface OutcomeStats {
  /** ISO; null: every run recorded. */
  since: string | null;
  until: string;
  totals: StatsTotals;
  items: ItemOutcome[];
  failures: FailureGroup[];
  /** Runs stopped without a failed attempt, by reason (`STOP_REASONS`). */
  stopped: FailureGroup[];
  spend: { byRole: SpendGroup[]; byRuntime: SpendGroup[]; byModel: SpendGroup[]; byAccount: SpendGroup[] };
  trend: DayTrend[];
  /** How well the scheduler guessed the files implementor runs change (conflict-aware dispatch). */
  fileEstimates: FileEstimateStats;
}

export interface OutcomeStatsOptions {
  /** Epoch milliseconds; null: everything recorded. */
  since: number | null;
  now: number;
}

const VERDICTS = new Set(['APPROVED', 'CHANGES_REQUESTED', 'DISMISSED']);

/**
 * The outcome figures over plain records. Runs count in the window when they were requested at or after
 * `since`; items when they were approved or merged at or after it, with the cost of all their runs.
 */
export function buildOutcomeStats(records: StatsRecords, options: OutcomeStatsOptions): OutcomeStats {
  const inWindow = (at: number | null) => at !== null && (options.since === null || at >= options.since);
  const runs = records.runs.filter((run) => inWindow(run.requestedAt));
  const runsByItem = groupBy(records.runs, (run) => run.workItemID);
  const items = records.items
    .map((item) => buildItemOutcome(item, runsByItem.get(item.workItemID) ?? []))
    .filter((item): item is ItemOutcome => item !== null)
    .filter((item) => inWindow(outcomeTime(item)))
    .sort((a, b) => (outcomeTime(a) ?? 0) - (outcomeTime(b) ?? 0));
  return {
    since: options.since === null ? null : new Date(options.since).toISOString(),
    until: new Date(options.now).toISOString(),
    totals: buildTotals(runs, items),
    items,
    failures: buildReasonGroups(runs.filter(isFailed)),
    stopped: buildReasonGroups(runs.filter(isStopped)),
    spend: {
      byRole: buildSpendGroups(runs, (run) => run.role),
      byRuntime: buildSpendGroups(runs, (run) => run.runtime),
      byModel: buildSpendGroups(runs, (run) => run.model),
      byAccount: buildSpendGroups(runs, (run) => run.account),
    },
    trend: buildTrend(runs, items, options),
    fileEstimates: buildFileEstimateStats(runs),
  };
}

function buildItemOutcome(item: StatsItem, runs: readonly StatsRun[]): ItemOutcome | null {
  const reviews = [...item.reviews].sort((a, b) => a.at - b.at);
  const approvals = reviews.filter((review) => review.state === 'APPROVED');
  const approvedAt = approvals.at(-1)?.at ?? null;
  const merged = item.mergedAt !== null;
  if (!merged && !(item.status === 'approved' && approvedAt !== null)) return null;
  const verdicts = reviews.filter((review) => VERDICTS.has(review.state));
  const firstRunAt = runs.length === 0 ? null : Math.min(...runs.map((run) => run.requestedAt));
  const since = (at: number | null) => (at === null || firstRunAt === null ? null : at - firstRunAt);
  const finished = item.checks.filter((check) => check.status !== 'pending');
  return {
    workItemID: item.workItemID,
    title: item.title,
    outcome: merged ? 'merged' : 'approved',
    approvedAt: isoOrNull(approvedAt),
    mergedAt: isoOrNull(item.mergedAt),
    ...sumCost(runs),
    runs: runs.length,
    firstRunAt: isoOrNull(firstRunAt),
    toApprovalMs: since(approvedAt),
    toMergeMs: since(item.mergedAt),
    reviewRounds: verdicts.length,
    firstPassApproved: verdicts[0]?.state === 'APPROVED',
    checkRounds: finished.length,
    checkFailures: finished.filter((check) => check.status === 'failure').length,
  };
}

/** When the item counts as done: its approval, else its merge. */
function outcomeTime(item: ItemOutcome): number | null {
  const at = item.approvedAt ?? item.mergedAt;
  return at === null ? null : Date.parse(at);
}

function buildTotals(runs: readonly StatsRun[], items: readonly ItemOutcome[]): StatsTotals {
  const reviewed = items.filter((item) => item.reviewRounds > 0);
  const firstPass = reviewed.filter((item) => item.firstPassApproved).length;
  const toApproval = items.flatMap((item) => (item.toApprovalMs === null ? [] : [item.toApprovalMs]));
  return {
    runs: runs.length,
    failedRuns: runs.filter(isFailed).length,
    stoppedRuns: runs.filter(isStopped).length,
    ...sumCost(runs),
    inputTokens: sum(runs.map((run) => run.inputTokens ?? 0)),
    outputTokens: sum(runs.map((run) => run.outputTokens ?? 0)),
    itemsDone: items.length,
    itemsMerged: items.filter((item) => item.outcome === 'merged').length,
    firstPassApprovalRate: reviewed.length === 0 ? null : firstPass / reviewed.length,
    firstPassApproved: firstPass,
    reviewedItems: reviewed.length,
    costPerItemUSD: mean(items.map((item) => item.costUSD)),
    scriptedCostPerItemUSD: mean(items.map((item) => item.scriptedCostUSD)),
    medianToApprovalMs: median(toApproval),
    reviewRoundsPerItem: mean(items.map((item) => item.reviewRounds)),
    checkRoundsPerItem: mean(items.map((item) => item.checkRounds)),
  };
}

/**
 * Why a run may end without a result and yet not be a failed attempt (the engine does not count it): a
 * provider limit (the runtime is parked and the run comes back), a budget cap, a runtime refused at dispatch,
 * Flotilla shutting down.
 */
export const STOP_REASONS: readonly string[] = [...LIMIT_REASONS, 'budget', 'unavailable', 'shutdown'];

/** A run that ended without a result (failed, timed out or cancelled). */
function endedWithoutResult(run: StatsRun): boolean {
  return run.status === 'failed' || run.status === 'timed-out' || run.status === 'cancelled';
}

function isStopped(run: StatsRun): boolean {
  return endedWithoutResult(run) && STOP_REASONS.includes(failureReasonOf(run));
}

/** A failed attempt: ended without a result for a reason of its own (`error`, `timeout`, `validation`…). */
function isFailed(run: StatsRun): boolean {
  return endedWithoutResult(run) && !STOP_REASONS.includes(failureReasonOf(run));
}

function failureReasonOf(run: StatsRun): string {
  if (run.status === 'cancelled' && run.cancelRequestedBy === 'shutdown') return 'shutdown';
  if (run.failureReason !== null) return run.failureReason;
  return run.status === 'timed-out' ? 'timeout' : run.status === 'cancelled' ? 'cancelled' : 'error';
}

function buildReasonGroups(runs: readonly StatsRun[]): FailureGroup[] {
  return [...groupBy(runs, failureReasonOf)]
    .map(([reason, group]) => ({ reason, runs: group.length, ...sumCost(group) }))
    .sort((a, b) => b.runs - a.runs || a.reason.localeCompare(b.reason));
}

function buildSpendGroups(runs: readonly StatsRun[], keyOf: (run: StatsRun) => string | null): SpendGroup[] {
  return [...groupBy(runs, keyOf)]
    .map(([key, group]) => ({
      key,
      runs: group.length,
      ...sumCost(group),
      inputTokens: sum(group.map((run) => run.inputTokens ?? 0)),
      outputTokens: sum(group.map((run) => run.outputTokens ?? 0)),
    }))
    .sort(
      (a, b) =>
        b.costUSD - a.costUSD ||
        b.scriptedCostUSD - a.scriptedCostUSD ||
        b.runs - a.runs ||
        String(a.key).localeCompare(String(b.key)),
    );
}

/** One row per local day from `since` (else the first record) to now, days without activity included. */
function buildTrend(
  runs: readonly StatsRun[],
  items: readonly ItemOutcome[],
  options: OutcomeStatsOptions,
): DayTrend[] {
  const times = [
    ...runs.map((run) => run.requestedAt),
    ...items.flatMap((item) => [outcomeTime(item) ?? options.now]),
  ];
  const from = options.since ?? (times.length === 0 ? null : Math.min(...times));
  if (from === null) return [];
  const runsByDay = groupBy(runs, (run) => localDayKey(run.requestedAt));
  const doneByDay = groupBy(items, (item) => localDayKey(outcomeTime(item) ?? options.now));
  const mergedByDay = groupBy(
    items.filter((item) => item.mergedAt !== null),
    (item) => localDayKey(Date.parse(item.mergedAt ?? '')),
  );
  return listLocalDays(from, options.now).map((day) => {
    const dayRuns = runsByDay.get(day) ?? [];
    return {
      day,
      runs: dayRuns.length,
      failedRuns: dayRuns.filter(isFailed).length,
      stoppedRuns: dayRuns.filter(isStopped).length,
      ...sumCost(dayRuns),
      itemsDone: doneByDay.get(day)?.length ?? 0,
      itemsMerged: mergedByDay.get(day)?.length ?? 0,
    };
  });
}

function sumCost(runs: readonly StatsRun[]): CostSplit {
  let costUSD = 0;
  let scriptedCostUSD = 0;
  for (const run of runs) {
    if (run.runtime === SCRIPTED_RUNTIME) scriptedCostUSD += run.costUSD ?? 0;
    else costUSD += run.costUSD ?? 0;
  }
  return { costUSD, scriptedCostUSD };
}

function groupBy<T, K>(values: readonly T[], keyOf: (value: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : sum(values) / values.length;
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function isoOrNull(at: number | null): string | null {
  return at === null ? null : new Date(at).toISOString();
}
