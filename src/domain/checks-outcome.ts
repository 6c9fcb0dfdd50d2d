import type { Pipeline, PipelineStatus } from './revision.ts';

/**
 * The one pass/fail vocabulary users see, in the CLI's text and JSON, the HTTP API and the dashboard:
 * checks `passed`, `failed` or are `pending` (`unknown` when no status was read). The stored
 * PipelineStatus keeps GitHub's words (`success`/`failure`), which never reach a user.
 */
export type ChecksOutcome = 'passed' | 'failed' | 'pending';

const OUTCOMES: Record<PipelineStatus, ChecksOutcome> = {
  success: 'passed',
  failure: 'failed',
  pending: 'pending',
};

export function describeChecksOutcome(status: PipelineStatus): ChecksOutcome {
  return OUTCOMES[status];
}

/** A pipeline as users see it (`work show --json`, `checks --json`, the API). */
export interface ChecksView {
  status: ChecksOutcome;
  url: string | null;
  reason: string | null;
}

export function buildChecksView(pipeline: Pipeline | null): ChecksView | null {
  return pipeline === null
    ? null
    : { status: describeChecksOutcome(pipeline.status), url: pipeline.url, reason: pipeline.reason };
}

/** `checks: passed — reason (log: …)` as one line; `unknown` for a null pipeline. */
export function formatChecksLine(pipeline: Pipeline | null, urlLabel: string): string {
  if (pipeline === null) return 'checks: unknown';
  const reason = pipeline.reason ? ` — ${pipeline.reason}` : '';
  const url = pipeline.url ? ` (${urlLabel}${pipeline.url})` : '';
  return `checks: ${describeChecksOutcome(pipeline.status)}${reason}${url}`;
}
