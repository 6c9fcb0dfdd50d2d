import type { MergeRevisionResult } from '../../../src/providers/types.ts';
import type { createInMemoryRevisions } from './create-in-memory-revisions.ts';
import type { createInMemoryWorkItems } from './create-in-memory-work-items.ts';
import type { InMemoryWorld } from './in-memory-world.ts';

interface InMemoryMergeParts {
  world: InMemoryWorld;
  workItems: ReturnType<typeof createInMemoryWorkItems>['control'];
  revisions: ReturnType<typeof createInMemoryRevisions>['control'];
}

/**
 * `RevisionWriter.mergeRevision` for the double: the same refusals as the local provider (checked before
 * anything changes), then the merge a human would do on the tracker (`control.mergeRevision`: the revision
 * is merged, the default branch moves, the item is closed). Needs both the item and the revision side.
 */
export function createInMemoryMerge(parts: InMemoryMergeParts) {
  const { world, workItems, revisions } = parts;
  return async function mergeRevision(revisionID: string): Promise<MergeRevisionResult> {
    const revision = revisions.revisionRecord(revisionID);
    if (revision.state !== 'open') {
      throw new Error(
        `in-memory provider: revision ${revisionID} is ${revision.state}; only open ones merge`,
      );
    }
    const item = revision.workItemID === null ? null : workItems.toWorkItem(revision.workItemID);
    if (item === null || item.linkedRevision !== revisionID) {
      throw new Error(`in-memory provider: revision ${revisionID} is not the revision of a work item`);
    }
    if (item.status !== 'approved') {
      throw new Error(`in-memory provider: work item ${item.id} is ${item.status}, not approved`);
    }
    revisions.mergeRevision(revisionID);
    return {
      workItem: workItems.toWorkItem(item.id),
      // No git here: every merge is a new commit on the default branch.
      strategy: 'merge-commit',
      mergedSHA: world.defaultBranchSHA,
    };
  };
}
