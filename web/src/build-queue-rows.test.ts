import { describe, expect, it } from 'vitest';
import type { QueueSummary } from '../../src/cli/support/load-queue-summary.ts';
import { buildQueueRows } from './build-queue-rows.ts';

const entry = (
  position: number,
  workItemID: string,
  waitingFor: string[] = [],
  trackerQueue: QueueSummary['entries'][number]['trackerQueue'] = null,
) => ({
  position,
  workItemID,
  title: `Item ${workItemID}`,
  priority: null,
  revisionID: `r${workItemID}`,
  headSHA: `${workItemID}`.repeat(40).slice(0, 40),
  pipeline: null,
  waitingFor,
  trackerQueue,
});

describe('buildQueueRows', () => {
  it('words the head, the held entries and the ones behind the head as `flotilla queue` does', () => {
    const summary: QueueSummary = {
      automatic: false,
      entries: [entry(1, '7', ['3']), entry(2, '4'), entry(3, '9')],
      head: {
        workItemID: '4',
        revisionID: 'r4',
        state: 'checks-pending',
        blockedBy: 'checks running on 444',
      },
      held: [{ workItemID: '7', reason: 'waits for #3 to merge' }],
    };
    expect(buildQueueRows(summary).map((row) => [row.position, row.workItemID, row.kind, row.note])).toEqual([
      [1, '7', 'held', 'waits for #3 to merge'],
      [2, '4', 'head', 'head: checks running on 444'],
      [3, '9', 'waiting', 'waits for the head'],
    ]);
  });

  it('says a ready head merges next; an empty queue has no rows', () => {
    const ready: QueueSummary = {
      automatic: true,
      entries: [entry(1, '2')],
      head: { workItemID: '2', revisionID: 'r2', state: 'ready', blockedBy: null },
      held: [],
    };
    expect(buildQueueRows(ready)[0]).toMatchObject({ kind: 'head', note: 'head: merges next' });
    expect(buildQueueRows({ automatic: false, entries: [], head: null, held: [] })).toEqual([]);
  });

  it("says where an entry in GitHub's merge queue stands there, and what GitHub's state is", () => {
    const queued = (position: number, state: string) => ({
      position,
      state,
      enqueuedAt: '2025-02-01T00:00:00Z',
      estimatedTimeToMerge: null,
    });
    const summary: QueueSummary = {
      automatic: true,
      entries: [entry(1, '5', [], queued(1, 'AWAITING_CHECKS')), entry(2, '6', [], queued(2, 'QUEUED'))],
      head: {
        workItemID: '5',
        revisionID: 'r5',
        state: 'tracker-queue',
        blockedBy:
          "in GitHub's merge queue at position 1 (first): AWAITING_CHECKS — waiting for its merge group's checks to pass",
      },
      held: [],
    };
    expect(buildQueueRows(summary).map((row) => [row.kind, row.note])).toEqual([
      [
        'head',
        "head: in GitHub's merge queue at position 1 (first): AWAITING_CHECKS — waiting for its merge group's checks to pass",
      ],
      [
        'waiting',
        "in GitHub's merge queue at position 2 (1 ahead): QUEUED — queued, its merge group not started yet",
      ],
    ]);
  });
});
