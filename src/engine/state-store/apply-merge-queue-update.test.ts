import { describe, expect, it } from 'vitest';
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
});
