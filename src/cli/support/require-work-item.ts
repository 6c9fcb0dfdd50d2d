import type { WorkItem } from '../../domain/index.ts';
import { revisionName } from '../../domain/index.ts';
import type { SqliteTracker } from '../../storage/index.ts';
import { CliError } from './cli-error.ts';

/**
 * The work item, or a runtime failure (exit 1) naming the command that lists the existing ones. Items and
 * revisions share one number space, so an id that is a revision's says which item it belongs to and the
 * command to run instead (`command`, e.g. `merge`: `flotilla merge 7`).
 */
export function requireWorkItem(tracker: SqliteTracker, id: string, command?: string): WorkItem {
  const item = tracker.workItems.getWorkItem(id);
  if (item === null) {
    const revision = tracker.revisions.getRevision(id);
    if (revision?.workItemID != null) {
      const instead = command === undefined ? '' : `: \`flotilla ${command} ${revision.workItemID}\``;
      throw new CliError(
        `${id} is not a work item: it is revision ${revisionName(revision)} of work item #${revision.workItemID}; commands take the item's id${instead}`,
        { exitCode: 1 },
      );
    }
    throw new CliError(`work item #${id} does not exist; see \`flotilla work list --all\` for the ids`, {
      exitCode: 1,
    });
  }
  return item;
}
