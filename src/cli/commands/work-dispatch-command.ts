import type { Command } from 'commander';
import { dispatchWorkItem } from '../support/dispatch-work-item.ts';
import { loadGitHubTrackerCommands } from '../support/load-github-provider.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

/**
 * `flotilla work dispatch <id>`: a human asking for an implementor. Moves the item to `ready`; a running
 * engine picks it up through its poller and dispatches it (the engine checks concurrency and attempts, so
 * the CLI never starts agents itself). Refinement items never go to an implementor.
 */
export function registerWorkDispatchCommand(work: Command): void {
  work
    .command('dispatch')
    .description(
      'ask for an implementor: move a pending, blocked or needs-refinement task to ready (a running `flotilla run` dispatches it)',
    )
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .action(
      runCliAction('work dispatch', (rawID: string) => {
        const id = parseWorkItemID(rawID);
        return withCliContext(async (context) => {
          if (context.config.provider === 'github')
            return (await loadGitHubTrackerCommands()).dispatch(context, id);
          const outcome = dispatchWorkItem(context.tracker, id);
          if (outcome.from === null) {
            process.stdout.write(`#${id} is already ready; a running \`flotilla run\` dispatches it\n`);
            return;
          }
          process.stdout.write(
            `#${id} ${outcome.from} → ready; a running \`flotilla run\` dispatches an implementor\n`,
          );
          if (outcome.openBlockers.length > 0) {
            process.stderr.write(
              `note: #${id} is still waiting for ${outcome.openBlockers.map((b) => `#${b}`).join(', ')} (not approved or closed); it is dispatched anyway because you asked\n`,
            );
          }
        });
      }),
    );
}
