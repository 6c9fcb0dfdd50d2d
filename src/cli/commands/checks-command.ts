import type { Command } from 'commander';
import { revisionName } from '../../domain/index.ts';
import { buildChecksSummary, type ChecksSummary } from '../support/build-checks-summary.ts';
import { formatTable } from '../support/format-table.ts';
import { loadContractTrackerCommands } from '../support/load-contract-tracker-commands.ts';
import { openLocalTracker } from '../support/open-local-tracker.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

/** Exit code while checks are still running, as `gh pr checks` (0 pass, 1 fail, 8 pending). */
export const CHECKS_PENDING_EXIT_CODE = 8;

export type { ChecksSummary };

/**
 * `flotilla checks <id> [--json]` (like `gh pr checks`): the checks of the item's revision head (the open
 * revision, else the one that was merged or closed): status, command, reason and log. Exit code as gh's:
 * 0 passed, 1 failed, 8 still running; an item without any revision is a runtime failure (1).
 */
export function registerChecksCommand(program: Command): void {
  program
    .command('checks')
    .description(
      "show the checks of a work item's revision (exit 0 passed, 1 failed, 8 pending, like `gh pr checks`)",
    )
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .option('--json', 'print the result as JSON')
    .action(
      runCliAction('checks', (rawID: string, options: { json?: boolean }) => {
        const id = parseWorkItemID(rawID);
        return withCliContext(async (context) => {
          const tracker = await openLocalTracker(context);
          if (tracker === undefined)
            return (await loadContractTrackerCommands()).checks(context, id, options);
          const { headRef, ...summary } = buildChecksSummary(tracker, context.config.checks.command, id);
          if (options.json) writeJson(summary);
          else process.stdout.write(formatChecks(summary, headRef));
          return summary.status === 'passed' ? 0 : summary.status === 'failed' ? 1 : CHECKS_PENDING_EXIT_CODE;
        });
      }),
    );
}

function formatChecks(summary: ChecksSummary, headRef: string): string {
  const header = `revision ${revisionName({ id: summary.revisionID })} (${summary.revisionState}) on ${headRef} at ${summary.headSHA.slice(0, 12)}\n`;
  const table = formatTable(
    ['NAME', 'STATUS', 'COMMAND', 'LOG'],
    [
      [
        'checks',
        summary.status,
        summary.command ?? '(none configured: every head passes)',
        summary.logPath ?? '-',
      ],
    ],
  );
  return header + table + (summary.reason === null ? '' : `reason: ${summary.reason}\n`);
}
