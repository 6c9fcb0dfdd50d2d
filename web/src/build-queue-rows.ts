import type { QueueSummary } from '../../src/cli/support/load-queue-summary.ts';
import { describeTrackerQueueEntry } from '../../src/domain/merge-queue.ts';

/** One entry of the merge queue panel: its place, and what it does or waits for, in words. */
export interface QueueRow {
  position: number;
  workItemID: string;
  title: string;
  /** head: merged next (or once its checks pass); held: passed over (a blocker, red checks); waiting: behind the head. */
  kind: 'head' | 'held' | 'waiting';
  note: string;
}

/**
 * The merge queue panel's rows, in merge order, worded as `flotilla queue` words them
 * (src/cli/commands/queue-command.ts): the head with what blocks it ("merges next" when nothing), held
 * entries with why, the rest waiting for the head (or, in GitHub's merge queue, their place and state there).
 */
export function buildQueueRows(summary: QueueSummary): QueueRow[] {
  const held = new Map(summary.held.map((entry) => [entry.workItemID, entry.reason]));
  return summary.entries.map((entry) => {
    const base = { position: entry.position, workItemID: entry.workItemID, title: entry.title };
    if (entry.workItemID === summary.head?.workItemID) {
      return { ...base, kind: 'head', note: `head: ${summary.head.blockedBy ?? 'merges next'}` };
    }
    const reason = held.get(entry.workItemID);
    if (reason !== undefined) return { ...base, kind: 'held', note: reason };
    const note =
      entry.trackerQueue === null ? 'waits for the head' : describeTrackerQueueEntry(entry.trackerQueue);
    return { ...base, kind: 'waiting', note };
  });
}
