import type { Command } from 'commander';
import { type ChecksOutcome, describeChecksOutcome, revisionName } from '../../domain/index.ts';
import type { RevisionState } from '../../storage/index.ts';
import { CliError } from '../support/cli-error.ts';
import { findWorkItemRevision } from '../support/find-work-item-revision.ts';
import { formatTable } from '../support/format-table.ts';
import { loadContractTrackerCommands } from '../support/load-contract-tracker-commands.ts';
import { openLocalTracker } from '../support/open-local-tracker.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { requireWorkItem } from '../support/require-work-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

/** Exit code while checks are still running, as `gh pr checks` (0 pass, 1 fail, 8 pending). */
export const CHECKS_PENDING_EXIT_CODE = 8;

/** `flotilla checks --json` (documented in src/cli/README.md). */
export interface ChecksSummary {
  workItemID: string;
  revisionID: string;
  revisionState: RevisionState;
  headSHA: string;
  /** `checks.command` from the config; null when no checks are configured (every head passes). */
  command: string | null;
  /** The one vocabulary (src/domain/checks-outcome.ts): passed, failed or pending. */
  status: ChecksOutcome;
  /** The first failing check, for a failure. */
  reason: string | null;
  /** The checks log, when the provider recorded one. */
  logPath: string | null;
}

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
          const { config } = context;
          const item = requireWorkItem(tracker, id, 'checks');
          const revision = findWorkItemRevision(tracker, item);
          if (revision === null) {
            throw new CliError(`#${id} has no revision yet, so nothing was checked (it is ${item.status})`, {
              exitCode: 1,
            });
          }
          const pipeline = revision.pipeline ?? { status: 'pending' as const, url: null, reason: null };
          const summary: ChecksSummary = {
            workItemID: id,
            revisionID: revision.id,
            revisionState: revision.state,
            headSHA: revision.headSHA,
            command: config.checks.command,
            status: describeChecksOutcome(pipeline.status),
            reason: pipeline.reason,
            logPath: pipeline.url,
          };
          if (options.json) writeJson(summary);
          else process.stdout.write(formatChecks(summary, revision.headRef));
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
