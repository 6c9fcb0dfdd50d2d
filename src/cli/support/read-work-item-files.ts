import type { RevisionFile } from '../../domain/index.ts';
import { listChangedFiles } from '../../providers/shared/list-changed-files.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { SqliteTracker } from '../../storage/index.ts';
import { CliError } from './cli-error.ts';
import { findWorkItemRevision } from './find-work-item-revision.ts';
import { requireWorkItem } from './require-work-item.ts';

export interface WorkItemFiles {
  revision: { id: string; headRef: string; headSHA: string; state: string };
  files: RevisionFile[];
}

/**
 * The files an item's revision changed (the open one, else its newest merged or closed one, as `flotilla
 * diff` picks it), listed the way the local provider lists a revision's files for the dashboard: its head
 * against the default-branch commit it was made on. No revision yet, or git cannot read it: CliError exit 1.
 */
export async function readWorkItemFiles(
  tracker: SqliteTracker,
  repoRoot: string,
  id: string,
): Promise<WorkItemFiles> {
  const item = requireWorkItem(tracker, id, 'diff');
  const revision = findWorkItemRevision(tracker, item);
  if (revision === null) {
    throw new CliError(`#${id} has no revision yet, so there is no diff (it is ${item.status})`, {
      exitCode: 1,
    });
  }
  // Revision commits have exactly one parent: the default-branch commit the patch was applied to.
  const files = await listChangedFiles(repoRoot, `${revision.headSHA}^1`, revision.headSHA).catch(
    (error: unknown) => {
      throw new CliError(
        `cannot read the revision of #${id} (${revision.headRef} at ${revision.headSHA.slice(0, 12)}) from git: ${messageOf(error)}`,
        { exitCode: 1 },
      );
    },
  );
  return {
    revision: {
      id: revision.id,
      headRef: revision.headRef,
      headSHA: revision.headSHA,
      state: revision.state,
    },
    files,
  };
}
