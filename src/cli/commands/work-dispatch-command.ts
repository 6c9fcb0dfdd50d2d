import type { Command } from 'commander';
import { isDependencyTerminal, type WorkItemStatus } from '../../domain/index.ts';
import { CliError } from '../support/cli-error.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { refuseUndispatchableKind } from '../support/refuse-undispatchable-kind.ts';
import { requireProviderItem } from '../support/require-provider-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';

const DISPATCHABLE: readonly WorkItemStatus[] = ['pending', 'blocked', 'needs-refinement'];

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
          const item = await requireProviderItem(provider, id);
          refuseUndispatchableKind(item);
          if (item.status === 'ready') {
            process.stdout.write(`#${id} is already ready; a running \`flotilla run\` dispatches it\n`);
            return;
          }
          if (!DISPATCHABLE.includes(item.status)) {
            throw new CliError(
              `#${id} is ${item.status}; only pending, blocked or needs-refinement items can be dispatched` +
                (item.status === 'closed' ? ` (reopen it first: \`flotilla work reopen ${id}\`)` : ''),
              { exitCode: 1 },
            );
          }
          const openBlockers: string[] = [];
          for (const blockerID of item.blockedBy) {
            const blocker = await provider.workItemReader.getWorkItem(blockerID);
            if (blocker !== null && !isDependencyTerminal(blocker.status)) openBlockers.push(blockerID);
          }
          await provider.workItemWriter.transitionStatus(id, 'ready');
          process.stdout.write(
            `#${id} ${item.status} → ready; a running \`flotilla run\` dispatches an implementor\n`,
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
