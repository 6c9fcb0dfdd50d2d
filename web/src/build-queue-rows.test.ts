import { describe, expect, it } from 'vitest';
import type { QueueSummary } from '../../src/cli/support/load-queue-summary.ts';
import { buildQueueRows } from './build-queue-rows.ts';

const entry = (position: number, workItemID: string, waitingFor: string[] = []) => ({
  position,
  workItemID,
  title: `Item ${workItemID}`,
  priority: null,
  revisionID: `r${workItemID}`,
  headSHA: `${workItemID}`.repeat(40).slice(0, 40),
  pipeline: null,
  waitingFor,
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
});
