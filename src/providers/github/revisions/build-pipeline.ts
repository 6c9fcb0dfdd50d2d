import type { Pipeline } from '../../../domain/index.ts';

/** Check-run conclusions that fail a pipeline. */
export const FAILED_CHECK_CONCLUSIONS: ReadonlySet<string> = new Set([
  'failure',
  'timed_out',
  'cancelled',
  'action_required',
  'startup_failure',
  'stale',
]);

export interface CheckSummary {
  name: string;
  /** REST's lower-case values: queued, in_progress, completed, … */
  status: string;
  conclusion: string | null;
  url: string | null;
  title: string | null;
}

export interface StatusSummary {
  context: string;
  /** pending, success, failure, error */
  state: string;
  url: string | null;
  description: string | null;
}

/** Check runs and commit statuses (at least one) → the pipeline: any failure wins, then anything unfinished. */
export function buildPipeline(runs: CheckSummary[], statuses: StatusSummary[]): Pipeline {
  const failedRun = runs.find(
    (run) => run.status === 'completed' && FAILED_CHECK_CONCLUSIONS.has(run.conclusion ?? ''),
  );
  if (failedRun !== undefined) {
    return {
      status: 'failure',
      url: failedRun.url,
      reason: `${failedRun.name}: ${failedRun.title ?? failedRun.conclusion ?? 'failed'}`,
    };
  }
  const failedStatus = statuses.find((status) => status.state === 'failure' || status.state === 'error');
  if (failedStatus !== undefined) {
    return {
      status: 'failure',
      url: failedStatus.url,
      reason: `${failedStatus.context}: ${failedStatus.description ?? failedStatus.state}`,
    };
  }
  if (
    runs.some((run) => run.status !== 'completed') ||
    statuses.some((status) => status.state === 'pending')
  ) {
    return { status: 'pending', url: null, reason: null };
  }
  return { status: 'success', url: runs[0]?.url ?? statuses[0]?.url ?? null, reason: null };
}
