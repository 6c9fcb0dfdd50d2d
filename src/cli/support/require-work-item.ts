import type { WorkItem } from '../../domain/index.ts';
import type { SqliteTracker } from '../../storage/index.ts';
import { CliError } from './cli-error.ts';

/** The work item, or a runtime failure (exit 1) naming the command that lists the existing ones. */
export function requireWorkItem(tracker: SqliteTracker, id: string): WorkItem {
  const item = tracker.workItems.getWorkItem(id);
  if (item === null) {
    throw new CliError(`work item #${id} does not exist; see \`flotilla work list --all\` for the ids`, {
      exitCode: 1,
    });
  }
  return item;
}
