import type { AgentRole, AgentRunStatus, PipelineStatus, WorkItemStatus } from '../domain/index.ts';

/**
 * One agent run as the statistics read it: plain data, loaded from the run history (see
 * `src/cli/support/load-stats-records.ts`). Model and account are null when the history does not record them.
 */
export interface StatsRun {
  sessionID: string;
  role: AgentRole;
  /** Implementor and reviewer runs; null for the planner. */
  workItemID: string | null;
  status: AgentRunStatus;
  /** Why it ended without a result, as recorded (`error`, `timeout`, `cancelled`, `validation`, …). */
  failureReason: string | null;
  cancelRequestedBy: 'user' | 'shutdown' | null;
  /** Epoch milliseconds. */
  requestedAt: number;
  endedAt: number | null;
  costUSD: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  /** `claude`, `codex`, `cli`, `scripted` (made-up cost) …; null when not recorded. */
  runtime: string | null;
  model: string | null;
  account: string | null;
  /** Implementor runs: the files the scheduler expected it to change; null when unknown or not an implementor. */
  estimatedFiles: readonly string[] | null;
  /** Implementor runs that completed with a patch: the files it changed; null otherwise. */
  changedFiles: readonly string[] | null;
}

/** A verdict or comment on one of the item's revisions (GitHub's review states). */
export interface StatsReview {
  state: string;
  /** Epoch milliseconds. */
  at: number;
}

/** The checks result of one head of one of the item's revisions. */
export interface StatsCheck {
  status: PipelineStatus;
  /** Epoch milliseconds of the last update. */
  at: number;
}

/** One work item with its review and checks history across all its revisions, oldest first. */
export interface StatsItem {
  workItemID: string;
  title: string;
  status: WorkItemStatus;
  /** When the tracker recorded the merge of one of its revisions (the latest); null: not merged. */
  mergedAt: number | null;
  reviews: StatsReview[];
  checks: StatsCheck[];
}

export interface StatsRecords {
  runs: StatsRun[];
  items: StatsItem[];
}
