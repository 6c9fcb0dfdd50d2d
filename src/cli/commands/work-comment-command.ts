import type { Command } from 'commander';
import { addHumanComment } from '../support/add-human-comment.ts';
import { CliError } from '../support/cli-error.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { type BodyOptions, readBodyOption } from '../support/read-body-option.ts';
import { readHumanAuthor } from '../support/read-human-author.ts';
import { requireProviderItem } from '../support/require-provider-item.ts';
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
          const provider = await context.provider.open();
          await requireProviderItem(provider, id);
          const author = await readHumanAuthor(context.repoRoot);
          await addHumanComment(provider, id, { body, author });
          process.stdout.write(`commented on #${id} as ${author}\n`);
        });
      }),
    );
}
