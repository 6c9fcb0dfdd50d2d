import type { WorkItem } from '../../domain/index.ts';

/**
 * Why `flotilla merge <id>` refuses an item that is not approved, with a next step that works for what the
 * item has: `flotilla review <id> --approve` only when there is a revision to approve (review refuses an item
 * without one), otherwise what makes one. `revision` is how the item's revision is named, or null.
 */
export function describeMergeRefusal(item: WorkItem, revision: string | null): string {
  const id = item.id;
  const head = `#${id} is ${item.status}, not approved; only approved items are merged`;
  if (revision === null) {
    const next =
      item.kind !== 'task'
        ? `it is a ${item.kind} item, which no implementor takes`
        : item.status === 'in-progress'
          ? 'an implementor is making one; merge once it is reviewed and approved'
          : item.status === 'waiting-for-input'
            ? `its agent asked questions: answer them with \`flotilla answer ${id}\``
            : item.status === 'blocked' || item.status === 'needs-refinement'
              ? `hand it to an implementor: \`flotilla work dispatch ${id}\``
              : 'an implementor makes one once `flotilla run` dispatches it';
    return `${head}, and it has no revision yet, so there is nothing to merge (${next})`;
  }
  if (item.status === 'in-progress') {
    return `${head}: an implementor is reworking revision ${revision}; merge once it is reviewed and approved`;
  }
  return `${head} (wait for the reviewer, or approve revision ${revision} yourself: \`flotilla review ${id} --approve\`)`;
}
