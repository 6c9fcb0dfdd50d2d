import type { ChecksOutputTail } from '../../types.ts';
import type { GitHubOctokit } from '../client/create-github-client.ts';
import { buildChecksOutputTail } from './build-checks-output-tail.ts';
import { FAILED_CHECK_CONCLUSIONS } from './build-pipeline.ts';

/** The pull request whose head's failed checks are read. */
export interface ChecksTailPull {
  head: { sha: string };
  html_url: string;
}

/**
 * The failed check runs (title, summary, text and annotations) and failed commit statuses of a pull request's
 * head, as the checks log tail a rework prompt carries; null when nothing failed. `which: 'all'`: every check
 * run and status whatever its outcome (passed, running), as the checks log `Provider.history` shows.
 */
export async function readChecksOutputTail(
  octokit: GitHubOctokit,
  { owner, repo }: { owner: string; repo: string },
  pull: ChecksTailPull,
  scope: { which: 'failed' | 'all' } = { which: 'failed' },
): Promise<ChecksOutputTail | null> {
  const all = scope.which === 'all';
  const [runs, combined] = await Promise.all([
    octokit.paginate(octokit.rest.checks.listForRef, { owner, repo, ref: pull.head.sha, per_page: 100 }),
    octokit.rest.repos.getCombinedStatusForRef({ owner, repo, ref: pull.head.sha, per_page: 100 }),
  ]);
  const failedRuns = runs.filter(
    (run) => all || (run.status === 'completed' && FAILED_CHECK_CONCLUSIONS.has(run.conclusion ?? '')),
  );
  const failedStatuses = combined.data.statuses.filter(
    (status) => all || status.state === 'failure' || status.state === 'error',
  );
  if (failedRuns.length === 0 && failedStatuses.length === 0) return null;
  const sections: string[] = [];
  for (const run of failedRuns) {
    const annotations =
      (run.output?.annotations_count ?? 0) === 0
        ? []
        : await octokit.paginate(octokit.rest.checks.listAnnotations, {
            owner,
            repo,
            check_run_id: run.id,
            per_page: 100,
          });
    sections.push(
      [
        `${run.name}: ${run.output?.title ?? run.conclusion ?? (all ? run.status : 'failed')}`,
        run.output?.summary ?? '',
        run.output?.text ?? '',
        ...annotations.map(
          (annotation) =>
            `${annotation.path}:${annotation.start_line}: ${annotation.annotation_level ?? 'failure'}: ${annotation.message ?? ''}`,
        ),
      ]
        .filter((part) => part !== '')
        .join('\n'),
    );
  }
  for (const status of failedStatuses) {
    sections.push(`${status.context}: ${status.description ?? status.state}`);
  }
  const first = failedRuns[0];
  const logPath =
    (first === undefined ? null : (first.details_url ?? first.html_url)) ??
    failedStatuses[0]?.target_url ??
    pull.html_url;
  return buildChecksOutputTail(sections.join('\n\n'), logPath);
}
