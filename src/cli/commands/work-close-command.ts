import type { Command } from 'commander';
import { revisionName } from '../../domain/index.ts';
import { CliError } from '../support/cli-error.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { readHumanAuthor } from '../support/read-human-author.ts';
import { requireNoActiveAgent } from '../support/require-no-active-agent.ts';
import { requireProviderItem } from '../support/require-provider-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

/**
 * `flotilla work close <id> [--comment <text>]` (like `gh issue close`): the item is closed, and its open
 * revision with it (a closed item's revision would never be merged; its branch is kept). Already closed:
 * exit 0, nothing changes. A running engine sees it through its poller and dispatches nothing for it; refused
 * while it has an agent on the item (the agent's result would reopen it).
 */
export function registerWorkCloseCommand(work: Command): void {
  work
    .command('close')
    .description('close a work item (and its open revision; the branch is kept)')
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .option('-c, --comment <text>', 'leave a closing comment')
    .action(
      runCliAction('work close', (rawID: string, options: { comment?: string }) => {
        const id = parseWorkItemID(rawID);
        if (options.comment !== undefined && options.comment.trim() === '') {
          throw new CliError('--comment is empty; expected the comment text', { exitCode: 2 });
        }
        return withCliContext(async (context) => {
          const provider = await context.provider.open();
          const item = await requireProviderItem(provider, id, 'work close');
          if (item.status === 'closed') {
            process.stdout.write(`#${id} is already closed\n`);
            return;
          }
          requireNoActiveAgent(context, id, 'the close');
          const comment = options.comment ?? null;
          const { localAdmin } = provider;
          if (localAdmin !== undefined) {
            // Closes its revision with it, in one transaction (the branch is kept).
            const author = comment === null ? null : await readHumanAuthor(context.repoRoot);
            const revision = await localAdmin.closeWorkItem(
              id,
              comment === null || author === null ? null : { body: comment, author },
            );
            process.stdout.write(
              `closed #${id} (was ${item.status})` +
                (revision === null
                  ? ''
                  : `; closed its revision ${revisionName(revision)} (branch ${revision.headRef} kept)`) +
                '\n',
            );
            return;
          }
          if (comment !== null) await provider.workItemWriter.addComment(id, comment);
          await provider.workItemWriter.transitionStatus(id, 'closed');
          const site = context.provider.links?.site ?? `provider ${provider.name}`;
          process.stdout.write(
            `closed #${id} (was ${item.status})` +
              (item.linkedRevision === null
                ? ''
                : `; its pull request #${item.linkedRevision} stays open on ${site} (close it there)`) +
              '\n',
          );
        });
      }),
    );
}
