import type { Command } from 'commander';
import { formatTable } from '../support/format-table.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

interface WorkListOptions {
  json?: boolean;
  all?: boolean;
}

/** `flotilla work list [--json] [--all]`: open work items oldest first (closed ones too with --all). */
export function registerWorkListCommand(work: Command): void {
  work
    .command('list')
    .description('list open work items, oldest first')
    .option('--all', 'include closed work items')
    .option('--json', 'print a JSON array of work items (shape: src/cli/README.md)')
    .action(
      runCliAction('work list', (options: WorkListOptions) =>
        withCliContext(({ tracker }) => {
          const items = tracker.workItems.listWorkItems({ includeClosed: options.all === true });
          if (options.json) return writeJson(items);
          if (items.length === 0) {
            process.stdout.write(
              options.all
                ? 'No work items yet. Create one with `flotilla work create --title …`.\n'
                : 'No open work items (`--all` shows closed ones too).\n',
            );
            return;
          }
          const rows = items.map((item) => [
            `#${item.id}`,
            item.status,
            item.kind,
            item.priority ?? '-',
            item.blockedBy.length === 0 ? '-' : item.blockedBy.map((id) => `#${id}`).join(','),
            item.linkedRevision === null ? '-' : `#${item.linkedRevision}`,
            item.title,
          ]);
          process.stdout.write(
            formatTable(['ID', 'STATUS', 'KIND', 'PRIORITY', 'BLOCKED BY', 'REVISION', 'TITLE'], rows),
          );
        }),
      ),
    );
}
