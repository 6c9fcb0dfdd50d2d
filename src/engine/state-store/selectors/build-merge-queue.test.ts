import { describe, expect, it } from 'vitest';
import {
  buildPipeline,
  buildRevision,
  buildTestState,
  buildWorkItem,
} from '../../../../test/support/shared/builders/index.ts';
import { buildMergeQueue } from './build-merge-queue.ts';

/** An approved item `id` with its open revision `r<id>` (checks `pipeline`). */
function approved(
  id: string,
  options: {
    priority?: 'high' | 'medium' | 'low';
    blockedBy?: string[];
    createdAt?: string;
    pipeline?: 'pending' | 'success' | 'failure';
  } = {},
) {
  return {
    item: buildWorkItem({
      id,
      status: 'approved',
      linkedRevision: `r${id}`,
      priority: options.priority ?? null,
      blockedBy: options.blockedBy ?? [],
      createdAt: options.createdAt ?? `2025-01-0${id}T00:00:00.000Z`,
    }),
    revision: buildRevision({
      id: `r${id}`,
      workItemID: id,
      headSHA: `${id}`.repeat(40).slice(0, 40),
      pipeline: buildPipeline(options.pipeline ?? 'success'),
    }),
  };
}
function state(entries: ReturnType<typeof approved>[], others = [buildWorkItem({ id: '9' })]) {
  return buildTestState({
    workItems: [...entries.map((entry) => entry.item), ...others],
    revisions: entries.map((entry) => entry.revision),
  });
}

describe('buildMergeQueue', () => {
  it('orders approved items with a revision by priority, then age; other items are not in it', () => {
    const view = buildMergeQueue(
      state(
        [approved('1'), approved('2', { priority: 'high' }), approved('3', { priority: 'low' })],
        [
          buildWorkItem({ id: '4', status: 'review', linkedRevision: null }),
          buildWorkItem({ id: '5', status: 'approved', linkedRevision: null }),
        ],
      ),
    );
    expect(view.entries.map((entry) => [entry.position, entry.workItemID])).toEqual([
      [1, '2'],
      [2, '1'],
      [3, '3'],
    ]);
    expect(view.head?.workItemID).toBe('2');
    expect(view.headState).toBe('ready');
    expect(view.headBlockedBy).toBeNull();
  });

  it('puts a blocker before what it blocks, whatever their priorities', () => {
    const view = buildMergeQueue(
      state([approved('1', { priority: 'low' }), approved('2', { priority: 'high', blockedBy: ['1'] })]),
    );
    expect(view.entries.map((entry) => entry.workItemID)).toEqual(['1', '2']);
    expect(view.head?.workItemID).toBe('1');
    expect(view.entries[1]?.waitingFor).toEqual(['1']);
  });

  it('passes over entries waiting for an unmerged blocker or with red checks, and says why', () => {
    const view = buildMergeQueue(
      state(
        [
          approved('1', { blockedBy: ['9'] }),
          approved('2', { pipeline: 'failure' }),
          approved('3', { pipeline: 'pending' }),
        ],
        [buildWorkItem({ id: '9', status: 'in-progress' })],
      ),
    );
    expect(view.head?.workItemID).toBe('3');
    expect(view.headState).toBe('checks-pending');
    expect(view.headBlockedBy).toBe(`checks running on ${'3'.repeat(12)}`);
    expect(view.held).toEqual([
      { workItemID: '1', reason: 'waits for #9 to merge' },
      { workItemID: '2', reason: `checks failed on ${'2'.repeat(12)}` },
    ]);
  });

  it('counts a closed blocker as merged', () => {
    const view = buildMergeQueue(
      state([approved('2', { blockedBy: ['9'] })], [buildWorkItem({ id: '9', status: 'closed' })]),
    );
    expect(view.head?.workItemID).toBe('2');
    expect(view.entries[0]?.waitingFor).toEqual([]);
  });

  it("puts entries in GitHub's merge queue first, in GitHub's order; the head waits on GitHub's state for it", () => {
    const inQueue = (entry: ReturnType<typeof approved>, position: number, queueState: string) => ({
      ...entry,
      revision: {
        ...entry.revision,
        pipeline: buildPipeline('pending'),
        trackerQueue: {
          position,
          state: queueState,
          enqueuedAt: '2025-02-01T00:00:00Z',
          estimatedTimeToMerge: null,
        },
      },
    });
    // #1 is Flotilla's first by age but not queued; #3 (blocked by an open item) and #2 are in GitHub's queue.
    const view = buildMergeQueue(
      state([
        approved('1'),
        inQueue(approved('2'), 3, 'QUEUED'),
        inQueue(approved('3', { blockedBy: ['9'] }), 2, 'AWAITING_CHECKS'),
      ]),
    );
    expect(
      view.entries.map((entry) => [entry.position, entry.workItemID, entry.trackerQueue?.position]),
    ).toEqual([
      [1, '3', 2],
      [2, '2', 3],
      [3, '1', undefined],
    ]);
    expect(view.head?.workItemID).toBe('3');
    expect(view.headState).toBe('tracker-queue');
    expect(view.headBlockedBy).toBe(
      "in GitHub's merge queue at position 2 (1 ahead): AWAITING_CHECKS — waiting for its merge group's checks to pass",
    );
    expect(view.held).toEqual([]);
    expect(view.entries[2]?.trackerQueue).toBeNull();
  });

  it('has no head when nothing is approved', () => {
    expect(buildMergeQueue(state([]))).toEqual({
      entries: [],
      head: null,
      headState: null,
      headBlockedBy: null,
      held: [],
    });
  });
});
