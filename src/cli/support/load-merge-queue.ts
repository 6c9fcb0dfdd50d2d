import type { Revision, WorkItem } from '../../domain/index.ts';
import { buildMergeQueue, type MergeQueueView } from '../../engine/state-store/selectors/index.ts';
import type { Provider } from '../../providers/types.ts';

/**
 * The merge queue as the engine sees it (buildMergeQueue, issue #30 §5), from the tracker now: open items,
 * open revisions, and the blockers of approved items that are not open (closed ones count as merged).
 */
export async function loadMergeQueue(
  provider: Pick<Provider, 'workItemReader' | 'revisionReader'>,
): Promise<MergeQueueView> {
  const [items, revisions] = await Promise.all([
    provider.workItemReader.listWorkItems(),
    provider.revisionReader.listRevisions(),
  ]);
  const workItems: Record<string, WorkItem> = Object.fromEntries(items.map((item) => [item.id, item]));
  const missing = [
    ...new Set(
      items
        .filter((item) => item.status === 'approved')
        .flatMap((item) => item.blockedBy)
        .filter((id) => workItems[id] === undefined),
    ),
  ];
  for (const blocker of await Promise.all(missing.map((id) => provider.workItemReader.getWorkItem(id)))) {
    if (blocker !== null) workItems[blocker.id] = blocker;
  }
  const byID: Record<string, Revision> = Object.fromEntries(
    revisions.map((revision) => [revision.id, revision]),
  );
  return buildMergeQueue({ workItems, revisions: byID });
}
