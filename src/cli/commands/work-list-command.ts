import type { Command } from 'commander';
import {
  listOpenBlockers,
  revisionName,
  WORK_ITEM_STATUSES,
  type WorkItem,
  type WorkItemStatus,
} from '../../domain/index.ts';
import type { Provider } from '../../providers/types.ts';
import { CliError } from '../support/cli-error.ts';
import { collectOption } from '../support/collect-option.ts';
import { formatTable } from '../support/format-table.ts';
import type { CliContext } from '../support/open-cli-context.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

interface WorkListOptions {
  json?: boolean;
  all?: boolean;
  state?: string;
  status: string[];
  label: string[];
}

const STATES = ['open', 'closed', 'all'] as const;
type ListState = (typeof STATES)[number];

/**
 * `flotilla work list [--state open|closed|all] [--status <s>...] [--label <l>...] [--all] [--json]`: work
 * items oldest first, filtered like `gh issue list` (open ones by default; every `--label` must be present;
 * any of the `--status` values matches, and a `--status` without `--state` looks at closed items too).
 */
export function registerWorkListCommand(work: Command): void {
  work
    .command('list')
    .description('list work items, oldest first (open ones unless --state or --status says otherwise)')
    .option('--state <state>', 'open (default), closed or all')
    .option('--all', 'include closed work items (same as --state all)')
    .option(
      '--status <status>',
      `only items in this status, repeatable or comma-separated: ${WORK_ITEM_STATUSES.join(', ')}`,
      collectOption,
      [],
    )
    .option('--label <label>', 'only items with this label (repeatable: all must match)', collectOption, [])
    .option('--json', 'print a JSON array of work items')
    .action(
      runCliAction('work list', (options: WorkListOptions) => {
        const statuses = parseStatuses(options.status);
        const state = parseState(options, statuses.length > 0);
        return withCliContext(async (context) => {
          const provider = await context.provider.open();
          const { localAdmin } = provider;
          // Every item the provider lists: closed ones too with LocalAdmin, else the open ones (a blocker
          // outside them is closed).
          const known =
            localAdmin === undefined
              ? await listOpenWorkItems(context, provider, options)
              : await localAdmin.listAllWorkItems();
          const listed = known.filter((item) => state !== 'open' || item.status !== 'closed');
          const knownStatus = new Map(known.map((item) => [item.id, item.status]));
          const statusOf = (id: string) => knownStatus.get(id);
          const labelsOf = new Map<string, string[]>();
          if (localAdmin !== undefined && options.label.length > 0) {
            for (const item of listed) labelsOf.set(item.id, await localAdmin.getLabels(item.id));
          }
          const items = listed
            .filter((item) => state !== 'closed' || item.status === 'closed')
            .filter((item) => statuses.length === 0 || statuses.includes(item.status))
            .filter((item) => {
              const labels = labelsOf.get(item.id);
              return labels === undefined || options.label.every((label) => labels.includes(label));
            });
          if (options.json) return writeJson(items);
          if (items.length === 0) {
            const filtered = statuses.length > 0 || options.label.length > 0 || state === 'closed';
            process.stdout.write(
              filtered
                ? 'No work items match.\n'
                : state === 'all'
                  ? 'No work items yet. Create one with `flotilla work create --title …`.\n'
                  : 'No open work items (`--all` shows closed ones too).\n',
            );
            return;
          }
          const rows = items.map((item) => [
            `#${item.id}`,
            item.status,
            item.kind,
            item.priority ?? '-',
            listOpenBlockers(item, statusOf)
              .map(({ id }) => `#${id}`)
              .join(',') || '-',
            item.linkedRevision === null ? '-' : revisionName({ id: item.linkedRevision }),
            item.title,
          ]);
          process.stdout.write(
            formatTable(['ID', 'STATUS', 'KIND', 'PRIORITY', 'WAITING FOR', 'REVISION', 'TITLE'], rows),
          );
        });
      }),
    );
}

/**
 * The open work items of a provider without the LocalAdmin capability (GitHub issues). Closed items and label
 * filters stay on the tracker's own search (the provider contract lists open items and does not expose free
 * labels).
 */
async function listOpenWorkItems(
  context: CliContext,
  provider: Provider,
  options: WorkListOptions,
): Promise<WorkItem[]> {
  const { name, links } = context.provider;
  const site = links?.site ?? name;
  const where = links?.itemsUrl ?? site;
  if (options.all || (options.state !== undefined && options.state !== 'open')) {
    throw new CliError(`with provider ${name} only open work items are listed; closed ones: ${where}`, {
      exitCode: 2,
    });
  }
  if (options.label.length > 0) {
    throw new CliError(`with provider ${name}, filter by label on ${site}: ${where}`, { exitCode: 2 });
  }
  return provider.workItemReader.listWorkItems();
}

function parseStatuses(values: readonly string[]): WorkItemStatus[] {
  const statuses = values.flatMap((value) => value.split(',')).map((value) => value.trim());
  for (const status of statuses) {
    if (!(WORK_ITEM_STATUSES as readonly string[]).includes(status)) {
      throw new CliError(
        `--status "${status}" is not a status; expected one of ${WORK_ITEM_STATUSES.join(', ')}`,
        { exitCode: 2 },
      );
    }
  }
  return statuses as WorkItemStatus[];
}

function parseState(options: WorkListOptions, hasStatus: boolean): ListState {
  if (options.state === undefined) return options.all || hasStatus ? 'all' : 'open';
  if (!(STATES as readonly string[]).includes(options.state)) {
    throw new CliError(`--state "${options.state}" is not a state; expected open, closed or all`, {
      exitCode: 2,
    });
  }
  if (options.all && options.state !== 'all') {
    throw new CliError(`--all contradicts --state ${options.state}; give one of them`, { exitCode: 2 });
  }
  return options.state as ListState;
}
