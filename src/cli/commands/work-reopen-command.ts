import type { Command } from 'commander';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { requireProviderItem } from '../support/require-provider-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

/**
 * `flotilla work reopen <id> [--hold]` (like `gh issue reopen`): a closed item opens again as `pending`, so a
 * running engine dispatches it once its blockers are done — or `blocked` with `--hold`, waiting for
 * `work dispatch`. Already open: exit 0, nothing changes.
 */
export function registerWorkReopenCommand(work: Command): void {
  work
    .command('reopen')
    .description(
      'reopen a closed work item as pending (a running `flotilla run` dispatches it), or blocked with --hold',
    )
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .option('--hold', 'reopen it blocked (parked for a human) instead of pending')
    .action(
      runCliAction('work reopen', (rawID: string, options: { hold?: boolean }) => {
        const id = parseWorkItemID(rawID);
        return withCliContext(async (context) => {
          const provider = await context.provider.open();
          const item = await requireProviderItem(provider, id);
          if (item.status !== 'closed') {
            process.stdout.write(`#${id} is already open (${item.status})\n`);
            return;
          }
          const status = options.hold ? 'blocked' : 'pending';
          await provider.workItemWriter.transitionStatus(id, status);
          process.stdout.write(
            `reopened #${id} as ${status}` +
              (options.hold
                ? `; \`flotilla work dispatch ${id}\` starts it\n`
                : '; a running `flotilla run` dispatches it once its blockers are done\n'),
          );
        });
      }),
    );
}
