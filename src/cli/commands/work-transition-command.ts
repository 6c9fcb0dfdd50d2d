import type { Command } from 'commander';
import { WORK_ITEM_STATUSES, type WorkItemStatus } from '../../domain/index.ts';
import { CliError } from '../support/cli-error.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { requireProviderItem } from '../support/require-provider-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

/**
 * `flotilla work transition <id> <status>`: sets any status, like a human editing the tracker (the `user`
 * cause of the transition table allows every move) — but `approved` only for an item with an open revision,
 * as that status is about one. `closed` closes the item; any other status reopens it.
 */
export function registerWorkTransitionCommand(work: Command): void {
  work
    .command('transition')
    .description(
      `set a work item's status (any move a human may make; approved needs a revision): ${WORK_ITEM_STATUSES.join(', ')}`,
    )
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .argument('<status>', `new status: ${WORK_ITEM_STATUSES.join(' | ')}`)
    .action(
      runCliAction('work transition', (rawID: string, status: string) => {
        const id = parseWorkItemID(rawID);
        if (!isWorkItemStatus(status)) {
          throw new CliError(`unknown status "${status}"; expected one of ${WORK_ITEM_STATUSES.join(', ')}`, {
            exitCode: 2,
          });
        }
        return withCliContext(async (context) => {
          const provider = await context.provider.open();
          const before = await requireProviderItem(provider, id);
          if (before.status === status) {
            process.stdout.write(`#${id} is already ${status}\n`);
            return;
          }
          // `approved` means "this revision may be merged": without one there is nothing to approve, and
          // `merge` would then fail on it.
          if (status === 'approved' && before.linkedRevision === null) {
            throw new CliError(
              `#${id} has no revision, so it cannot be approved; an implementor makes one: ` +
                `\`flotilla work transition ${id} ready\` (a running \`flotilla run\` dispatches it)`,
              { exitCode: 1 },
            );
          }
          await provider.workItemWriter.transitionStatus(id, status);
          process.stdout.write(`#${id} ${before.status} → ${status}\n`);
        });
      }),
    );
}

function isWorkItemStatus(value: string): value is WorkItemStatus {
  return (WORK_ITEM_STATUSES as readonly string[]).includes(value);
}
