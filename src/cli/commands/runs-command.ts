import { relative } from 'node:path';
import type { Command } from 'commander';
import { shortErrorCause } from '../../app/progress/short-error-cause.ts';
import { isLimitReason, revisionName, SCRIPTED_RUNTIME } from '../../domain/index.ts';
import { formatTable } from '../support/format-table.ts';
import { parsePositiveInteger } from '../support/parse-positive-integer.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';
import { buildRunSummary, type RunSummary } from './runs-command-summary.ts';

interface RunsOptions {
  json?: boolean;
  limit: number;
  item?: string;
}

const DEFAULT_LIMIT = 20;

/** `flotilla runs [--json] [--limit N] [--item <id>]`: agent run history from `.flotilla/flotilla.db`. */
export function registerRunsCommand(program: Command): void {
  program
    .command('runs')
    .description(
      'agent run history, newest first: role, work item or specs, status, start, duration, cost, tokens, transcript',
    )
    .option('--limit <n>', 'show at most n runs', parsePositiveInteger, DEFAULT_LIMIT)
    .option('--item <id>', 'only the implementor and reviewer runs of this work item')
    .option('--json', 'print a JSON array of runs')
    .action(
      runCliAction('runs', (options: RunsOptions) => {
        const workItemID = options.item === undefined ? undefined : parseWorkItemID(options.item);
        return withCliContext(({ history, repoRoot }) => {
          const runs = history.listRuns({ limit: options.limit, workItemID }).map(buildRunSummary);
          if (options.json) return writeJson(runs);
          if (runs.length === 0) {
            process.stdout.write('No runs recorded yet. `flotilla run` starts the control plane.\n');
            return;
          }
          process.stdout.write(
            formatTable(
              [
                'SESSION',
                'ROLE',
                'MODE',
                'TARGET',
                'STATUS',
                'STARTED',
                'DURATION',
                'COST',
                'TOKENS IN/OUT',
                'TRANSCRIPT',
              ],
              runs.map((run) => formatRow(run, repoRoot)),
            ),
          );
          process.stdout.write(
            '`flotilla logs <session>` prints a transcript (a unique prefix is enough).\n',
          );
        });
      }),
    );
}

function formatRow(run: RunSummary, repoRoot: string): string[] {
  const target =
    run.role === 'planner'
      ? run.specPaths.join(',') || '-'
      : `#${run.workItemID ?? '?'}${run.revisionID ? ` (${revisionName({ id: run.revisionID })})` : ''}` +
        (run.sessionNumber > 1 ? ` session ${run.sessionNumber}` : '');
  // A limit (rate, overload, usage) is why the run stopped, not an attempt that failed: say which.
  const details = [
    ...(isLimitReason(run.failureReason) ? [run.failureReason] : []),
    ...(run.account !== null ? [`account ${run.account}`] : []),
    ...(run.askedQuestions ? ['asked questions'] : []),
  ];
  const labelled = details.length > 0 ? `${run.status} (${details.join(', ')})` : run.status;
  const status =
    run.failureReason === null || run.error === null
      ? labelled
      : `${labelled}: ${shortErrorCause(run.error, 60)}`;
  const tokens =
    run.inputTokens === null && run.outputTokens === null
      ? '-'
      : `${run.inputTokens ?? '?'}/${run.outputTokens ?? '?'}`;
  return [
    run.sessionID.slice(0, 8),
    run.role,
    run.model === null ? run.mode : `${run.mode} (${run.model})`,
    target,
    status,
    formatLocalTime(new Date(run.requestedAt)),
    run.durationMs === null ? 'running' : formatDuration(run.durationMs),
    run.costUSD === null
      ? '-'
      : `$${run.costUSD.toFixed(4)}${run.runtime === SCRIPTED_RUNTIME ? ' (scripted)' : ''}`,
    tokens,
    run.logFilePath === null ? '-' : relativeIfInside(repoRoot, run.logFilePath),
  ];
}

function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms}ms`;
  const seconds = Math.round(ms / 1_000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes}m${seconds % 60}s` : `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}

function formatLocalTime(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function relativeIfInside(root: string, path: string): string {
  const rel = relative(root, path);
  return rel.startsWith('..') || rel === '' ? path : rel;
}
