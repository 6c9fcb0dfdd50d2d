import type { Revision, WorkItem } from '../../domain/index.ts';
import type { RevisionState, SqliteTracker } from '../../storage/index.ts';

/**
 * The revision a command about an item's changes means: the open (linked) one, else the newest of the
 * item's merged or closed ones (so `diff` and `checks` still answer after a merge); null when it has none.
 */
export function findWorkItemRevision(
  tracker: SqliteTracker,
  item: WorkItem,
): (Revision & { state: RevisionState }) | null {
  const revision =
    (item.linkedRevision === null ? null : tracker.revisions.getRevision(item.linkedRevision)) ??
    tracker.revisions.listWorkItemRevisions(item.id).at(-1) ??
    null;
  return revision === null ? null : { ...revision, state: tracker.revisions.getRevisionState(revision.id) };
}
