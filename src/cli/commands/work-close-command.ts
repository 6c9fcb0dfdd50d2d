import type { Command } from 'commander';
import { revisionName } from '../../domain/index.ts';
import { CliError } from '../support/cli-error.ts';
import { loadGitHubTrackerCommands } from '../support/load-github-provider.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { readHumanAuthor } from '../support/read-human-author.ts';
import { requireNoActiveAgent } from '../support/require-no-active-agent.ts';
import { requireWorkItem } from '../support/require-work-item.ts';
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
          const { tracker, db, repoRoot, history, paths } = context;
          if (context.config.provider === 'github') {
            requireNoActiveAgent({ history, paths }, id, 'the close');
            return (await loadGitHubTrackerCommands()).close(context, id, options.comment ?? null);
          }
          const item = requireWorkItem(tracker, id, 'work close');
          if (item.status === 'closed') {
            process.stdout.write(`#${id} is already closed\n`);
            return;
          }
          requireNoActiveAgent({ history, paths }, id, 'the close');
          const author = options.comment === undefined ? null : await readHumanAuthor(repoRoot);
          const revisionID = item.linkedRevision;
          db.transaction(() => {
            if (options.comment !== undefined && author !== null) {
              tracker.workItems.addComment(id, options.comment, author);
            }
            if (revisionID !== null) tracker.revisions.closeRevision(revisionID);
            tracker.workItems.transitionStatus(id, 'closed');
          })();
          const revision = revisionID === null ? null : tracker.revisions.getRevision(revisionID);
          process.stdout.write(
            `closed #${id} (was ${item.status})` +
              (revision === null
                ? ''
                : `; closed its revision ${revisionName(revision)} (branch ${revision.headRef} kept)`) +
              '\n',
          );
        });
      }),
    );
}
