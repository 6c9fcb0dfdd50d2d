import type { Command } from 'commander';
import { dispatchWorkItem } from '../support/dispatch-work-item.ts';
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
          const provider = await context.provider.open();
          const { from, openBlockers } = await dispatchWorkItem(provider, id);
          if (from === null) {
            process.stdout.write(`#${id} is already ready; a running \`flotilla run\` dispatches it\n`);
            return;
          }
          process.stdout.write(
            `#${id} ${from} → ready; a running \`flotilla run\` dispatches an implementor\n`,
          );
          if (openBlockers.length > 0) {
            process.stderr.write(
              `note: #${id} is still waiting for ${openBlockers.map((b) => `#${b}`).join(', ')} (not approved or closed); it is dispatched anyway because you asked\n`,
            );
          }
        });
      }),
    );
}
