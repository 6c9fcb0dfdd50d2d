import type { StatsItem, StatsRecords, StatsRun } from '../../analytics/stats-records.ts';
import type { StoredAgentRun, TrackerItemOutcome } from '../../storage/index.ts';

/** Where the statistics come from: the run history and the tracker's item history. */
export interface StatsSources {
  listRuns(query: { limit: number }): StoredAgentRun[];
  outcomes: { listItemOutcomes(): TrackerItemOutcome[] };
  /** The model of each run, from the budget ledger (runs without one show as "unknown"). */
  modelsBySession?: () => ReadonlyMap<string, string>;
}

/** Every recorded run and work item as plain records for the `build*` functions of `src/analytics/`. */
export function loadStatsRecords(sources: StatsSources): StatsRecords {
  const models = sources.modelsBySession?.() ?? new Map<string, string>();
  return {
    runs: sources
      .listRuns({ limit: Number.MAX_SAFE_INTEGER })
      .map((run) => buildStatsRun(run, models.get(run.sessionID) ?? null)),
    items: sources.outcomes.listItemOutcomes().map(buildStatsItem),
  };
}

/** One run as the statistics read it, with the model the ledger recorded for it (null: unknown). */
export function buildStatsRun(run: StoredAgentRun, model: string | null = null): StatsRun {
  return {
    sessionID: run.sessionID,
    role: run.role,
    workItemID: run.role === 'planner' ? null : run.workItemID,
    status: run.status,
    failureReason: run.failureReason,
    cancelRequestedBy: run.cancelRequestedBy,
    requestedAt: run.requestedAt,
    endedAt: run.endedAt,
    costUSD: run.usage?.costUSD ?? null,
    inputTokens: run.usage?.inputTokens ?? null,
    outputTokens: run.usage?.outputTokens ?? null,
    runtime: run.runtime ?? null,
    model,
    account: run.account ?? null,
    estimatedFiles: run.role === 'implementor' ? (run.estimatedFiles ?? null) : null,
    changedFiles: run.role === 'implementor' ? (run.changedFiles ?? null) : null,
  };
}

function buildStatsItem(outcome: TrackerItemOutcome): StatsItem {
  const merged = outcome.revisions.filter((revision) => revision.state === 'merged');
  const mergedAt = merged.length === 0 ? null : Math.max(...merged.map((r) => Date.parse(r.updatedAt)));
  return {
    workItemID: outcome.workItem.id,
    title: outcome.workItem.title,
    status: outcome.workItem.status,
    mergedAt,
    reviews: outcome.reviews.map((review) => ({ state: review.state, at: Date.parse(review.createdAt) })),
    checks: outcome.pipelines.map((pipeline) => ({
      status: pipeline.status,
      at: Date.parse(pipeline.updatedAt),
    })),
  };
}
