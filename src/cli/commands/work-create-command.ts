import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { checkReservedLabels } from '../support/check-reserved-labels.ts';
import { CliError } from '../support/cli-error.ts';
import { collectOption } from '../support/collect-option.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

interface WorkCreateOptions {
  title: string;
  body?: string;
  bodyFile?: string;
  label: string[];
  blockedBy: string[];
  json?: boolean;
}

/**
 * `flotilla work create --title <t> [--body <b> | --body-file <path>] [--label <l>...] [--blocked-by <id>...]`.
 * New items are `pending` tasks unless the labels say otherwise (`status:ready`, `task:refinement`, …).
 */
export function registerWorkCreateCommand(work: Command): void {
  work
    .command('create')
    .description('create a work item (a pending task unless labels say otherwise)')
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
    .option('--json', 'print the created work item as JSON (shape: src/cli/README.md)')
    .action(
      runCliAction('work create', async (options: WorkCreateOptions) => {
        if (options.title.trim() === '') {
          throw new CliError('--title is empty; expected a one-line title', { exitCode: 2 });
        }
        checkReservedLabels(options.label);
        const blockedBy = options.blockedBy.map((id) => parseWorkItemID(id, '--blocked-by work item id'));
        const body = await readBody(options);
        await withCliContext(({ tracker }) => {
          const item = tracker.workItems.createWorkItem({
            title: options.title.trim(),
            body,
            labels: options.label,
            blockedBy,
          });
          if (options.json) writeJson(item);
          else process.stdout.write(`created #${item.id} (${item.status} ${item.kind}): ${item.title}\n`);
        });
      }),
    );
}

async function readBody(options: WorkCreateOptions): Promise<string> {
  if (options.body !== undefined && options.bodyFile !== undefined) {
    throw new CliError('give either --body or --body-file, not both', { exitCode: 2 });
  }
  if (options.bodyFile === undefined) return options.body ?? '';
  try {
    return options.bodyFile === '-' ? await readStdin() : await readFile(options.bodyFile, 'utf8');
  } catch (error) {
    throw new CliError(
      `cannot read --body-file ${options.bodyFile}: ${error instanceof Error ? error.message : String(error)}; expected a readable text file`,
      { exitCode: 2 },
    );
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
