import type { StoredAgentRun } from '../../storage/index.ts';

/** One run as `flotilla runs --json` prints it (documented in src/cli/README.md; stable). */
export interface RunSummary {
  sessionID: string;
  role: StoredAgentRun['role'];
  /** What the run was for (issue #29): plan, plan-revision, implement, investigate, refine, review. */
  mode: string;
  /** The model `models.implementor`'s complexity map chose, and why; null when none did. */
  model: string | null;
  modelReason: string | null;
  status: StoredAgentRun['status'];
  /** Implementor and reviewer runs; null for the planner. */
  workItemID: string | null;
  /** Planner runs; empty for the others. */
  specPaths: string[];
  branchName: string | null;
  revisionID: string | null;
  /** ISO timestamps. */
  requestedAt: string;
  endedAt: string | null;
  /** endedAt − requestedAt; null while the run is active. */
  durationMs: number | null;
  failureReason: StoredAgentRun['failureReason'];
  error: string | null;
  /** As reported; made up when `runtime` is `scripted`. */
  costUSD: number | null;
  /** `claude`, `scripted` (the scripted model server: made-up cost), or null when not recorded. */
  runtime: string | null;
  /** The configured account (config `accounts`) the run used; null without accounts. */
  account: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  turns: number | null;
  logFilePath: string | null;
  /** Which session of its item and role: 1, or 2, 3… for sessions resumed with a human's answers. */
  sessionNumber: number;
  /** The run ended by asking a human questions (its session waited for answers). */
  askedQuestions: boolean;
}

/** The run's mode (issue #29): plan (or plan-revision), implement, investigate, refine, review. */
function modeOf(run: StoredAgentRun): string {
  if (run.role === 'planner') return run.mode ?? 'plan';
  if (run.role === 'reviewer') return 'review';
  return run.mode ?? 'implement';
}

export function buildRunSummary(run: StoredAgentRun): RunSummary {
  return {
    sessionID: run.sessionID,
    role: run.role,
    mode: modeOf(run),
    model: run.role === 'implementor' ? (run.model ?? null) : null,
    modelReason: run.role === 'implementor' ? (run.modelReason ?? null) : null,
    status: run.status,
    workItemID: run.role === 'planner' ? null : run.workItemID,
    specPaths: run.role === 'planner' ? run.specPaths : [],
    branchName: run.role === 'implementor' ? run.branchName : null,
    revisionID: run.role === 'reviewer' ? run.revisionID : null,
    requestedAt: new Date(run.requestedAt).toISOString(),
    endedAt: run.endedAt === null ? null : new Date(run.endedAt).toISOString(),
    durationMs: run.endedAt === null ? null : run.endedAt - run.requestedAt,
    failureReason: run.failureReason,
    error: run.error,
    costUSD: run.usage?.costUSD ?? null,
    runtime: run.runtime ?? null,
    account: run.account ?? null,
    inputTokens: run.usage?.inputTokens ?? null,
    outputTokens: run.usage?.outputTokens ?? null,
    turns: run.usage?.turns ?? null,
    logFilePath: run.logFilePath,
    sessionNumber: run.sessionNumber ?? 1,
    askedQuestions: run.askedQuestions === true,
  };
}
