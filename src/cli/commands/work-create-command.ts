import type { Command } from 'commander';
import type { WorkItem } from '../../domain/index.ts';
import { checkReservedLabels } from '../support/check-reserved-labels.ts';
import { CliError } from '../support/cli-error.ts';
import { collectOption } from '../support/collect-option.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { readBodyOption } from '../support/read-body-option.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

interface WorkCreateOptions {
  title: string;
  body?: string;
  bodyFile?: string;
  label: string[];
  blockedBy: string[];
  hold?: boolean;
  json?: boolean;
}

/**
 * `flotilla work create --title <t> [--body <b> | --body-file <path>] [--label <l>...] [--blocked-by <id>...]
 * [--hold]`. New items are `pending` tasks unless the labels say otherwise (`status:ready`, `task:refinement`,
 * …): a running engine makes an unblocked pending task `ready` and dispatches it. `--hold` creates it `blocked`
 * (parked for a human) so nothing starts until `work dispatch`.
 */
export function registerWorkCreateCommand(work: Command): void {
  work
    .command('create')
    .description(
      'create a work item: a pending task, which a running `flotilla run` dispatches once its blockers are done (--hold parks it until `work dispatch`)',
    )
    .requiredOption('--title <title>', 'one-line title')
    .option('--body <text>', 'description (markdown)')
    .option('--body-file <path>', "read the description from a file ('-' for stdin)")
    .option(
      '--label <label>',
      'add a label, repeatable: priority:high|medium|low, complexity:trivial|low|medium|high, task:refinement, status:<status>, or any free label',
      collectOption,
      [],
    )
    .option('--blocked-by <id>', 'an existing work item this one waits for (repeatable)', collectOption, [])
    .option(
      '--hold',
      'create it blocked (parked for a human): nothing dispatches it until `flotilla work dispatch <id>`',
    )
    .option('--json', 'print the created work item as JSON')
    .action(
      runCliAction('work create', async (options: WorkCreateOptions) => {
        if (options.title.trim() === '') {
          throw new CliError('--title is empty; expected a one-line title', { exitCode: 2 });
        }
        checkReservedLabels(options.label);
        if (options.hold && options.label.some((label) => label.startsWith('status:'))) {
          throw new CliError('give either --hold or a status:* label, not both', { exitCode: 2 });
        }
        const blockedBy = options.blockedBy.map((id) => parseWorkItemID(id, '--blocked-by work item id'));
        const body = (await readBodyOption(options)) ?? '';
        await withCliContext(async (context) => {
          const provider = await context.provider.open();
          const input = {
            title: options.title.trim(),
            body,
            labels: options.hold ? [...options.label, 'status:blocked'] : options.label,
            blockedBy,
          };
          const held = (id: string) =>
            `Held at creation (\`flotilla work create --hold\`): nothing dispatches it until \`flotilla work dispatch ${id}\` (or d in the dashboard).`;
          let item: WorkItem;
          if (provider.localAdmin !== undefined) {
            // The item and its comment in one transaction: a held item always says how to start it.
            item = await provider.localAdmin.createWorkItem(
              input,
              options.hold ? (created) => held(created.id) : null,
            );
          } else {
            item = await provider.workItemWriter.createWorkItem(input);
            if (options.hold) await provider.workItemWriter.addComment(item.id, held(item.id));
          }
          if (options.json) return writeJson(item);
          const url = context.provider.links?.itemUrl(item.id);
          process.stdout.write(
            `created #${item.id} (${item.status} ${item.kind}): ${item.title}\n` +
              (url === undefined ? '' : `${url}\n`) +
              (options.hold ? `held: \`flotilla work dispatch ${item.id}\` starts it\n` : ''),
          );
        });
      }),
    );
}
