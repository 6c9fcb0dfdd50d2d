import type { Command } from 'commander';
import { CliError } from '../support/cli-error.ts';
import { loadContractTrackerCommands } from '../support/load-contract-tracker-commands.ts';
import { openLocalTracker } from '../support/open-local-tracker.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { type BodyOptions, readBodyOption } from '../support/read-body-option.ts';
import { readHumanAuthor } from '../support/read-human-author.ts';
import { requireWorkItem } from '../support/require-work-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

/**
 * `flotilla work comment <id> --body <text> | --body-file <path|->` (like `gh issue comment`): a comment by
 * you (your git author name) on the item. Agents see the item's body, not its comments.
 */
export function registerWorkCommentCommand(work: Command): void {
  work
    .command('comment')
    .description('add a comment to a work item, as you (your git author name)')
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .option('-b, --body <text>', 'the comment (markdown)')
    .option('-F, --body-file <path>', "read the comment from a file ('-' for stdin)")
    .action(
      runCliAction('work comment', async (rawID: string, options: BodyOptions) => {
        const id = parseWorkItemID(rawID);
        const body = await readBodyOption(options);
        if (body === undefined || body.trim() === '') {
          throw new CliError('the comment is empty; give it with --body <text> or --body-file <path>', {
            exitCode: 2,
          });
        }
        await withCliContext(async (context) => {
          const { repoRoot } = context;
          const tracker = await openLocalTracker(context);
          if (tracker === undefined) {
            const author = await readHumanAuthor(repoRoot);
            return (await loadContractTrackerCommands()).comment(context, id, body, author);
          }
          requireWorkItem(tracker, id);
          const author = await readHumanAuthor(repoRoot);
          tracker.workItems.addComment(id, body, author);
          process.stdout.write(`commented on #${id} as ${author}\n`);
        });
      }),
    );
}
