import { describe, expect, it } from 'vitest';
import { buildRevision } from '../../../test/support/shared/builders/build-revision.ts';
import { buildWorkItem } from '../../../test/support/shared/builders/build-work-item.ts';
import type { MergeQueueStepped } from '../../domain/index.ts';
import { applyMergeQueueUpdate } from './apply-merge-queue-update.ts';
import { buildInitialEngineState } from './engine-state.ts';

const conflict = {
  revisionID: '2',
  headSHA: 'a'.repeat(40),
  baseSHA: 'b'.repeat(40),
  files: [{ path: 'src/x.ts', hunks: [] }],
};
const step = (outcome: MergeQueueStepped['outcome']): MergeQueueStepped => ({
  type: 'mergeQueueStepped',
  workItemID: '1',
  revisionID: '2',
  outcome,
  previousHeadSHA: conflict.headSHA,
  headSHA: conflict.headSHA,
  ...(outcome === 'conflict' && { conflict }),
  at: 1,
});

describe('applyMergeQueueUpdate', () => {
  it('records a conflict for the implementor and drops it at the next step of that item', () => {
    const withConflict = applyMergeQueueUpdate(buildInitialEngineState(), step('conflict'));
    expect(withConflict.mergeConflicts).toEqual({ '1': conflict });
    expect(applyMergeQueueUpdate(withConflict, step('rebased')).mergeConflicts).toEqual({});
  });

  it('drops it once the item is approved again or closed, not while it is reworked', () => {
    const withConflict = applyMergeQueueUpdate(buildInitialEngineState(), step('conflict'));
    const moved = (newStatus: 'in-progress' | 'approved' | 'closed') =>
      applyMergeQueueUpdate(withConflict, {
        type: 'workItemChanged',
        workItemID: '1',
        workItem: buildWorkItem({ id: '1', status: newStatus }),
        oldStatus: 'pending',
        newStatus,
      }).mergeConflicts;
    expect(moved('in-progress')).toEqual({ '1': conflict });
    expect(moved('approved')).toEqual({});
    expect(moved('closed')).toEqual({});
  });

  it('returns the same state when there is nothing to drop', () => {
    const state = buildInitialEngineState();
    expect(applyMergeQueueUpdate(state, step('merged'))).toBe(state);
  });

  it("follows what was handed to the tracker's own queue, until the item leaves approved or its head moves", () => {
    const head = conflict.headSHA;
    const queued = applyMergeQueueUpdate(buildInitialEngineState(), step('enqueued'));
    expect(queued.trackerMergeQueue).toEqual({ inUse: true, queued: { '1': head } });
    expect(applyMergeQueueUpdate(queued, step('enqueued'))).toBe(queued);
    const revision = (headSHA: string) =>
      applyMergeQueueUpdate(queued, {
        type: 'revisionChanged',
        revisionID: '2',
        workItemID: '1',
        revision: buildRevision({ id: '2', workItemID: '1', headSHA }),
        oldPipelineStatus: 'pending',
        newPipelineStatus: 'pending',
      }).trackerMergeQueue;
    expect(revision(head)).toEqual({ inUse: true, queued: { '1': head } });
    expect(revision('c'.repeat(40))).toEqual({ inUse: true, queued: {} });
    const sentBack = applyMergeQueueUpdate(queued, {
      type: 'workItemChanged',
      workItemID: '1',
      workItem: buildWorkItem({ id: '1', status: 'pending' }),
      oldStatus: 'approved',
      newStatus: 'pending',
    });
    expect(sentBack.trackerMergeQueue).toEqual({ inUse: true, queued: {} });
    // A step Flotilla's own queue made: the repository no longer requires the tracker's.
    expect(applyMergeQueueUpdate(queued, step('rebased')).trackerMergeQueue).toEqual({
      inUse: false,
      queued: {},
    });
  });
});
