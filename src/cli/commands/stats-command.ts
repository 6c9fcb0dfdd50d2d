import type { Command } from 'commander';
import { buildStatsLines } from '../../analytics/build-stats-lines.ts';
import { parseStatsSince, STATS_SINCE_FORMATS } from '../../analytics/parse-stats-since.ts';
import type { AgentNoteRecord } from '../../domain/index.ts';
import { buildStatsReport } from '../support/build-stats-report.ts';
import { CliError } from '../support/cli-error.ts';
import { openLocalTracker } from '../support/open-local-tracker.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

interface StatsOptions {
  since: string;
  json?: boolean;
}

export const DEFAULT_STATS_SINCE = '7d';

function formatDecisions(
  counts: Record<AgentNoteRecord['kind'], number>,
  decisions: readonly AgentNoteRecord[],
): string[] {
  const lines = [`Decisions agents recorded: ${counts.decision}   questions they logged: ${counts.question}`];
  for (const note of decisions) {
    const item = note.workItemID === null ? 'planner' : `#${note.workItemID}`;
    lines.push(`  ${item} [${note.role}] ${note.text}${note.why === null ? '' : ` — ${note.why}`}`);
  }
  return lines;
}

/**
 * `flotilla stats [--since 7d|12h|2026-11-01|all] [--json]`: whether the agents pay off — cost and time per
 * approved or merged item, first-pass approval, review and check rounds, failures by reason, spend by role /
 * runtime / model / account, and the trend per day, from the run history and the tracker.
 */
export function registerStatsCommand(program: Command): void {
  program
    .command('stats')
    .description(
      'outcome analytics: cost and time per approved/merged item, first-pass approval, review and check rounds, failures, spend by role/runtime/model/account, trend per day',
    )
    .option('--since <when>', `the period: ${STATS_SINCE_FORMATS}`, DEFAULT_STATS_SINCE)
    .option('--json', 'print the figures as JSON')
    .action(
      runCliAction('stats', (options: StatsOptions) => {
        const now = Date.now();
        const parsed = parseStatsSince(options.since, now);
        if (!parsed.ok) throw new CliError(parsed.error, { exitCode: 2 });
        return withCliContext(async (context) => {
          const { history } = context;
          const tracker = await openLocalTracker(context);
          if (tracker === undefined) {
            process.stderr.write(
              `flotilla stats: note: item outcomes (approvals, merges, rounds) come from the local tracker, which the ${context.provider.name} provider does not use; the run figures are complete\n`,
            );
          }
          const report = buildStatsReport(history, tracker, { since: parsed.since, now });
          if (options.json) return writeJson(report);
          const { agentNotes, ...stats } = report;
          const { latestDecisions, ...counts } = agentNotes;
          const text = buildStatsLines(stats).map((line) => line.text);
          text.push('', ...formatDecisions(counts, latestDecisions));
          process.stdout.write(`${text.join('\n')}\n`);
        });
      }),
    );
}
