import {
  describeTrackerQueueEntry,
  type PipelineStatus,
  type TrackerQueueEntry,
  type WorkItem,
  type WorkItemPriority,
} from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/** One approved revision waiting in the merge queue (issue #30 §5). */
export interface MergeQueueEntry {
  /** 1-based place in the queue. */
  position: number;
  workItemID: string;
  title: string;
  priority: WorkItemPriority | null;
  revisionID: string;
  headSHA: string;
  pipeline: PipelineStatus | null;
  /** Blockers not merged yet (not closed): the entry merges after them. */
  waitingFor: string[];
  /** Its entry in the tracker's own merge queue (GitHub's) while it sits there; null otherwise. */
  trackerQueue: TrackerQueueEntry | null;
}

/** What holds the head back, when something does. */
export type MergeQueueHeadState =
  /** Its checks run (or are not known yet) on its current head. */
  | 'checks-pending'
  /** Green: the next step merges it, after bringing it onto the default branch if that moved. */
  | 'ready'
  /** In the tracker's own merge queue (GitHub's): GitHub tests and merges it; its state says how far. */
  | 'tracker-queue';

export interface MergeQueueView {
  entries: MergeQueueEntry[];
  /** The entry the queue works on: the first one with its blockers merged and checks not red. */
  head: MergeQueueEntry | null;
  headState: MergeQueueHeadState | null;
  /** What the head waits for, in words; null when nothing (it merges at the next step) or no head. */
  headBlockedBy: string | null;
  /** Entries that cannot be the head, with why (a blocker not merged yet, red checks), in queue order. */
  held: { workItemID: string; reason: string }[];
}

const PRIORITY_RANK: Record<WorkItemPriority, number> = { high: 0, medium: 1, low: 2 };

/** Unlabelled items rank with medium ones, as the scheduler ranks them. */
function rankOf(priority: WorkItemPriority | null): number {
  return priority === null ? PRIORITY_RANK.medium : PRIORITY_RANK[priority];
}

function compareItems(a: WorkItem, b: WorkItem): number {
  const byPriority = rankOf(a.priority) - rankOf(b.priority);
  if (byPriority !== 0) return byPriority;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  const [na, nb] = [Number(a.id), Number(b.id)];
  if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The merge queue, in the order it merges (issue #30 §5): every approved task with an open revision,
 * highest priority first, then oldest; an item never before a blocker that is itself in the queue (a
 * dependency cycle keeps the priority order). The head is the first entry whose blockers are all merged
 * (closed) and whose checks are not red: one revision at a time is brought onto the default branch, checked
 * there and merged. Entries already in the tracker's own merge queue (GitHub's) come first, in GitHub's
 * order: GitHub merges them before anything Flotilla hands it next; what holds such a head is GitHub's
 * state for it. Pure: the engine's handler and the `flotilla queue` command read the same view.
 */
export function buildMergeQueue(state: Pick<EngineState, 'workItems' | 'revisions'>): MergeQueueView {
  const candidates = Object.values(state.workItems)
    .filter(
      (item) =>
        item.kind === 'task' &&
        item.status === 'approved' &&
        item.linkedRevision !== null &&
        state.revisions[item.linkedRevision] !== undefined,
    )
    .sort(compareItems);
  const inQueue = new Set(candidates.map((item) => item.id));
  const ordered: WorkItem[] = [];
  const placed = new Set<string>();
  const remaining = [...candidates];
  while (remaining.length > 0) {
    const next = remaining.findIndex((candidate) =>
      candidate.blockedBy.every((blocker) => !inQueue.has(blocker) || placed.has(blocker)),
    );
    const [item] = remaining.splice(next === -1 ? 0 : next, 1);
    if (item === undefined) break;
    ordered.push(item);
    placed.add(item.id);
  }
  const entries = inTrackerQueueFirst(ordered, state).map((item, index): MergeQueueEntry => {
    const revision = state.revisions[item.linkedRevision ?? '']!;
    return {
      position: index + 1,
      workItemID: item.id,
      title: item.title,
      priority: item.priority,
      revisionID: revision.id,
      headSHA: revision.headSHA,
      pipeline: revision.pipeline?.status ?? null,
      waitingFor: item.blockedBy.filter((blocker) => state.workItems[blocker]?.status !== 'closed'),
      trackerQueue: revision.trackerQueue ?? null,
    };
  });
  const held: MergeQueueView['held'] = [];
  let head: MergeQueueEntry | null = null;
  for (const entry of entries) {
    if (entry.trackerQueue !== null) {
      head ??= entry; // GitHub merges it whatever Flotilla would hold it for
    } else if (entry.waitingFor.length > 0) {
      held.push({
        workItemID: entry.workItemID,
        reason: `waits for ${entry.waitingFor.map((id) => `#${id}`).join(', ')} to merge`,
      });
    } else if (entry.pipeline === 'failure') {
      held.push({ workItemID: entry.workItemID, reason: `checks failed on ${entry.headSHA.slice(0, 12)}` });
    } else {
      head ??= entry;
    }
  }
  if (head === null) return { entries, head, headState: null, headBlockedBy: null, held };
  if (head.trackerQueue !== null) {
    const blockedBy = describeTrackerQueueEntry(head.trackerQueue);
    return { entries, head, headState: 'tracker-queue', headBlockedBy: blockedBy, held };
  }
  const ready = head.pipeline === 'success';
  return {
    entries,
    head,
    headState: ready ? 'ready' : 'checks-pending',
    headBlockedBy: ready ? null : `checks running on ${head.headSHA.slice(0, 12)}`,
    held,
  };
}

/** Items whose revision sits in the tracker's queue first, by their position there; the rest as they were. */
function inTrackerQueueFirst(ordered: WorkItem[], state: Pick<EngineState, 'revisions'>): WorkItem[] {
  const positionOf = (item: WorkItem) => state.revisions[item.linkedRevision ?? '']?.trackerQueue?.position;
  const queued = ordered
    .filter((item) => positionOf(item) !== undefined)
    .sort((a, b) => (positionOf(a) ?? 0) - (positionOf(b) ?? 0));
  return [...queued, ...ordered.filter((item) => positionOf(item) === undefined)];
}
