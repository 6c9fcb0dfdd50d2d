import type { MergeQueueEntry, MergeQueueHeadState } from '../../engine/state-store/selectors/index.ts';
import type { Provider } from '../../providers/types.ts';
import { loadMergeQueue } from './load-merge-queue.ts';

/** `flotilla queue --json` (documented in src/cli/README.md) and the API's `GET /api/merge-queue`. */
export interface QueueSummary {
  /** Config `merge.queue`: whether `flotilla run` merges approved items on its own. */
  automatic: boolean;
  /** In merge order. */
  entries: MergeQueueEntry[];
  /** The entry merged next, with what it waits for (null: it merges at the next step). */
  head: {
    workItemID: string;
    revisionID: string;
    state: MergeQueueHeadState;
    blockedBy: string | null;
  } | null;
  /** Entries passed over, and why. */
  held: { workItemID: string; reason: string }[];
}

/**
 * The merge queue (issue #30 §5) as `flotilla queue` shows it and the web dashboard's panel draws it: the
 * provider's approved items in merge order (`loadMergeQueue`), the head's state and what blocks it.
 */
export async function loadQueueSummary(
  provider: Pick<Provider, 'workItemReader' | 'revisionReader'>,
  automatic: boolean,
): Promise<QueueSummary> {
  const view = await loadMergeQueue(provider);
  return {
    automatic,
    entries: view.entries,
    head:
      view.head === null || view.headState === null
        ? null
        : {
            workItemID: view.head.workItemID,
            revisionID: view.head.revisionID,
            state: view.headState,
            blockedBy: view.headBlockedBy,
          },
    held: view.held,
  };
}
