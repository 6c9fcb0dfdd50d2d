import type { WorkItem } from '../../domain/index.ts';
import type { ConfiguredProvider } from '../../providers/provider-descriptor.ts';
import { CliError } from './cli-error.ts';
import { requireWorkItem } from './require-work-item.ts';

/**
 * The work item, through the provider, or a runtime failure (exit 1) in the provider's words: with a local
 * tracker, requireWorkItem's (revision names, `work list --all`); otherwise issues and pull requests, whose
 * numbers GitHub shares (a pull request's number says which item it belongs to). `command`: what to run
 * with the item's id instead (local tracker).
 */
export async function requireProviderItem(
  provider: ConfiguredProvider,
  id: string,
  command?: string,
): Promise<WorkItem> {
  if (provider.localTracker !== undefined) return requireWorkItem(provider.localTracker, id, command);
  const item = await provider.workItemReader.getWorkItem(id);
  if (item !== null) return item;
  const revision = await provider.revisionReader.getRevision(id).catch(() => null);
  if (revision?.workItemID != null) {
    throw new CliError(
      `#${id} is not a work item: it is PR #${id} of work item #${revision.workItemID}; commands take the item's id`,
      { exitCode: 1 },
    );
  }
  throw new CliError(`work item #${id} does not exist (no such issue with a task:* label)`, { exitCode: 1 });
}
