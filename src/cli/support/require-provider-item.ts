import { revisionName, type WorkItem } from '../../domain/index.ts';
import type { Provider } from '../../providers/types.ts';
import { CliError } from './cli-error.ts';

/**
 * The work item, through the provider contract, or a runtime failure (exit 1). Items and revisions share one
 * number space (local revisions, GitHub pull requests), so an id that is a revision's says which item it
 * belongs to and, given `command` (e.g. `merge`), the command to run instead (`flotilla merge 7`). An unknown
 * id points at where the ids are: `work list --all` where the CLI lists closed items too (LocalAdmin).
 */
export async function requireProviderItem(
  provider: Pick<Provider, 'workItemReader' | 'revisionReader' | 'localAdmin'>,
  id: string,
  command?: string,
): Promise<WorkItem> {
  const item = await provider.workItemReader.getWorkItem(id);
  if (item !== null) return item;
  const revision = await provider.revisionReader.getRevision(id).catch(() => null);
  if (revision?.workItemID != null) {
    const instead = command === undefined ? '' : `: \`flotilla ${command} ${revision.workItemID}\``;
    throw new CliError(
      `${id} is not a work item: it is revision ${revisionName(revision)} of work item #${revision.workItemID}; commands take the item's id${instead}`,
      { exitCode: 1 },
    );
  }
  const where =
    provider.localAdmin === undefined
      ? '`flotilla work list` for the open ones'
      : '`flotilla work list --all` for the ids';
  throw new CliError(`work item #${id} does not exist; see ${where}`, { exitCode: 1 });
}
