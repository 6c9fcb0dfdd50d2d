import type { WorkItem } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/** A blocker whose approved revision a dependent item builds on. */
export interface StackedBlocker {
  workItemID: string;
  title: string;
  revisionID: string;
  headSHA: string;
  headRef: string;
}

/** What a dependent item builds on (issue #30), in its `blockedBy` order. */
export interface StackBase {
  /** Approved blockers with their open revision: the item's worktree starts from these heads. */
  stacked: StackedBlocker[];
  /** Closed blockers: their work is on the default branch (when they were merged). */
  closed: { workItemID: string; title: string }[];
}

/**
 * The blockers an item builds on: approved ones through their open revision (its head), closed ones
 * through the default branch. A blocker that is neither, or unknown, or whose revision the store does not
 * hold, is left out (it still blocks, or there is nothing to build on).
 */
export function getStackBase(
  state: Pick<EngineState, 'workItems' | 'revisions'>,
  workItem: Pick<WorkItem, 'blockedBy'>,
): StackBase {
  const base: StackBase = { stacked: [], closed: [] };
  for (const blockerID of workItem.blockedBy) {
    const blocker = state.workItems[blockerID];
    if (blocker === undefined) continue;
    if (blocker.status === 'closed') {
      base.closed.push({ workItemID: blocker.id, title: blocker.title });
      continue;
    }
    const revision = blocker.linkedRevision === null ? undefined : state.revisions[blocker.linkedRevision];
    if (blocker.status !== 'approved' || revision === undefined) continue;
    base.stacked.push({
      workItemID: blocker.id,
      title: blocker.title,
      revisionID: revision.id,
      headSHA: revision.headSHA,
      headRef: revision.headRef,
    });
  }
  return base;
}
