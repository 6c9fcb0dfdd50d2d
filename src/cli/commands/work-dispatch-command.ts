import type { Command } from 'commander';
import { loadContractTrackerCommands } from '../support/load-contract-tracker-commands.ts';
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
          // One path for every provider, through the contract (the HTTP API: dispatchWorkItem, same rules).
          return (await loadContractTrackerCommands()).dispatch(context, id);
        });
      }),
    );
}
