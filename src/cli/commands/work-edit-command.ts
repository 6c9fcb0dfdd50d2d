import type { Command } from 'commander';
import { WORK_ITEM_COMPLEXITIES, WORK_ITEM_PRIORITIES, type WorkItem } from '../../domain/index.ts';
import { checkReservedLabels } from '../support/check-reserved-labels.ts';
import { CliError } from '../support/cli-error.ts';
import { collectOption } from '../support/collect-option.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { readBodyOption } from '../support/read-body-option.ts';
import { requireProviderItem } from '../support/require-provider-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

interface WorkEditOptions {
  title?: string;
  body?: string;
  bodyFile?: string;
  priority?: string;
  complexity?: string;
  addLabel: string[];
  removeLabel: string[];
  addBlockedBy: string[];
  removeBlockedBy: string[];
  json?: boolean;
}

/** Labels with one value at a time: adding one replaces the other values under its prefix. */
const SINGLE_VALUED_PREFIXES = ['priority:', 'complexity:', 'task:', 'runtime:'];

/**
 * `flotilla work edit <id> [--title] [--body|--body-file] [--priority] [--complexity] [--add-label]...
 * [--remove-label]... [--add-blocked-by]... [--remove-blocked-by]...` (like `gh issue edit`). Everything is
 * checked first and written in one transaction. The status is not edited here (`work transition`, `close`,
 * `reopen`, `dispatch`, `review` do that), so `status:*` labels are refused.
 */
export function registerWorkEditCommand(work: Command): void {
  work
    .command('edit')
    .description('edit a work item: title, body, priority, complexity, labels, blockers')
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .option('-t, --title <title>', 'new title')
    .option('-b, --body <text>', 'new description (markdown)')
    .option('-F, --body-file <path>', "read the new description from a file ('-' for stdin)")
    .option('--priority <priority>', `${WORK_ITEM_PRIORITIES.join(', ')} or none`)
    .option('--complexity <complexity>', `${WORK_ITEM_COMPLEXITIES.join(', ')} or none`)
    .option('--add-label <label>', 'add a label (repeatable)', collectOption, [])
    .option('--remove-label <label>', 'remove a label (repeatable)', collectOption, [])
    .option('--add-blocked-by <id>', 'an existing item this one waits for (repeatable)', collectOption, [])
    .option('--remove-blocked-by <id>', 'stop waiting for this item (repeatable)', collectOption, [])
    .option('--json', 'print the edited work item as JSON')
    .action(
      runCliAction('work edit', async (rawID: string, options: WorkEditOptions) => {
        const id = parseWorkItemID(rawID);
        const title = options.title?.trim();
        if (title === '') throw new CliError('--title is empty; expected a one-line title', { exitCode: 2 });
        const added = [
          ...options.addLabel,
          ...singleValue('priority', options.priority, WORK_ITEM_PRIORITIES),
          ...singleValue('complexity', options.complexity, WORK_ITEM_COMPLEXITIES),
        ];
        checkReservedLabels(added);
        if ([...added, ...options.removeLabel].some((label) => label.startsWith('status:'))) {
          throw new CliError(
            'status labels are not edited here; use `flotilla work transition <id> <status>` (or close, reopen, dispatch, review)',
            { exitCode: 2 },
          );
        }
        const removedPrefixes = [
          ...(options.priority === undefined ? [] : ['priority:']),
          ...(options.complexity === undefined ? [] : ['complexity:']),
        ];
        const addBlockers = options.addBlockedBy.map((value) =>
          parseWorkItemID(value, '--add-blocked-by id'),
        );
        const removeBlockers = options.removeBlockedBy.map((value) =>
          parseWorkItemID(value, '--remove-blocked-by id'),
        );
        const body = await readBodyOption(options);
        const labelsChange = added.length > 0 || options.removeLabel.length > 0 || removedPrefixes.length > 0;
        const blockersChange = addBlockers.length > 0 || removeBlockers.length > 0;
        if (title === undefined && body === undefined && !labelsChange && !blockersChange) {
          throw new CliError(
            'nothing to edit; give at least one of --title, --body, --body-file, --priority, --complexity, --add-label, --remove-label, --add-blocked-by, --remove-blocked-by',
            { exitCode: 2 },
          );
        }
        await withCliContext(async (context) => {
          const provider = await context.provider.open();
          const { localAdmin } = provider;
          if (localAdmin === undefined) {
            // The contract edits the body; titles, labels and blockers are edited on the tracker itself.
            if (body === undefined || title !== undefined || labelsChange || blockersChange) {
              throw new CliError(
                `with provider ${provider.name} only --body/--body-file are edited here; edit the title, labels and blockers on the issue (or with \`gh issue edit\`)`,
                { exitCode: 2 },
              );
            }
          }
          const before = await requireProviderItem(provider, id);
          let edited: WorkItem;
          if (localAdmin === undefined) {
            await provider.workItemWriter.updateWorkItem(id, { body: body ?? null, labels: null });
            edited = await requireProviderItem(provider, id);
          } else {
            const labels = labelsChange
              ? editLabels(await localAdmin.getLabels(id), added, options.removeLabel, removedPrefixes)
              : null;
            const kept = before.blockedBy.filter((blocker) => !removeBlockers.includes(blocker));
            edited = await localAdmin.editWorkItem(id, {
              title: title ?? null,
              body: body ?? null,
              labels,
              blockedBy: blockersChange ? [...kept, ...addBlockers] : null,
            });
          }
          if (options.json) return writeJson(edited);
          process.stdout.write(`edited #${id}: ${edited.title}\n`);
        });
      }),
    );
}

/** `--priority high` → `priority:high`; `none` removes it (no label); anything else is a usage error. */
function singleValue(name: string, value: string | undefined, allowed: readonly string[]): string[] {
  if (value === undefined || value === 'none') return [];
  if (!allowed.includes(value)) {
    throw new CliError(`--${name} "${value}" is not valid; expected one of ${allowed.join(', ')} or none`, {
      exitCode: 2,
    });
  }
  return [`${name}:${value}`];
}

/** The new label set (status labels left to the tracker, which keeps the status). */
function editLabels(
  current: readonly string[],
  added: readonly string[],
  removed: readonly string[],
  clearedPrefixes: readonly string[],
): string[] {
  const replacedPrefixes = SINGLE_VALUED_PREFIXES.filter((prefix) =>
    added.some((label) => label.startsWith(prefix)),
  );
  const kept = current.filter(
    (label) =>
      !label.startsWith('status:') &&
      !removed.includes(label) &&
      ![...clearedPrefixes, ...replacedPrefixes].some((prefix) => label.startsWith(prefix)),
  );
  return [...kept, ...added];
}
