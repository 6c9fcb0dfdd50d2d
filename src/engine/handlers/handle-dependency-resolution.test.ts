import { describe, expect, it } from 'vitest';
import {
  buildHandlerConfig,
  buildSampleEventList,
  buildSampleState,
  runHandlerAfterUpdate,
  SAMPLE_IDS,
} from '../../../test/support/engine/index.ts';
import {
  buildTestState,
  buildWorkItem,
  buildWorkItemChanged,
  buildWorkItemRemoved,
} from '../../../test/support/shared/builders/index.ts';
import { WORK_ITEM_STATUSES } from '../../domain/index.ts';
import { handleDependencyResolution } from './handle-dependency-resolution.ts';

const toReady = (workItemID: string) => ({
  type: 'transitionWorkItemStatus',
  workItemID,
  newStatus: 'ready',
  cause: 'dependency-resolved',
});

describe('handleDependencyResolution on every sample event', () => {
  it.each(buildSampleEventList())('$type', (event) => {
    const expected = event.type === 'workItemChanged' ? [toReady(SAMPLE_IDS.dependentItem)] : [];
    expect(runHandlerAfterUpdate(handleDependencyResolution, event, buildSampleState())).toEqual(expected);
  });
});

describe('handleDependencyResolution on workItemChanged', () => {
  const blocker = buildWorkItem({ id: 'blocker', status: 'review' });

  it.each(['approved', 'closed'] as const)(
    'a blocker now %s makes every unblocked pending dependent ready',
    (status) => {
      const before = buildTestState({
        workItems: [
          blocker,
          buildWorkItem({ id: 'd1', blockedBy: ['blocker'] }),
          buildWorkItem({ id: 'unrelated' }),
          buildWorkItem({ id: 'd2', blockedBy: ['blocker', 'done'] }),
          buildWorkItem({ id: 'done', status: 'closed' }),
        ],
      });
      const event = buildWorkItemChanged({ ...blocker, status }, 'review');
      expect(runHandlerAfterUpdate(handleDependencyResolution, event, before)).toEqual([
        toReady('d1'),
        toReady('d2'),
      ]);
    },
  );

  it("with dependencies.waitFor 'merged', only a closed blocker makes its dependents ready", () => {
    const before = buildTestState({
      workItems: [blocker, buildWorkItem({ id: 'd1', blockedBy: ['blocker'] })],
    });
    const merged = buildHandlerConfig({ dependencyWaitFor: 'merged' });
    const approved = buildWorkItemChanged({ ...blocker, status: 'approved' }, 'review');
    expect(runHandlerAfterUpdate(handleDependencyResolution, approved, before, merged)).toEqual([]);
    const closed = buildWorkItemChanged({ ...blocker, status: 'closed' }, 'approved');
    const afterApproval = buildTestState({
      workItems: [{ ...blocker, status: 'approved' }, buildWorkItem({ id: 'd1', blockedBy: ['blocker'] })],
    });
    expect(runHandlerAfterUpdate(handleDependencyResolution, closed, afterApproval, merged)).toEqual([
      toReady('d1'),
    ]);
  });

  it('skips dependents that still wait on another open or unknown blocker', () => {
    const before = buildTestState({
      workItems: [
        blocker,
        buildWorkItem({ id: 'other', status: 'in-progress' }),
        buildWorkItem({ id: 'd1', blockedBy: ['blocker', 'other'] }),
        buildWorkItem({ id: 'd2', blockedBy: ['blocker', 'unknown'] }),
      ],
    });
    const event = buildWorkItemChanged({ ...blocker, status: 'closed' }, 'review');
    expect(runHandlerAfterUpdate(handleDependencyResolution, event, before)).toEqual([]);
  });

  it.each(WORK_ITEM_STATUSES.filter((status) => status !== 'pending'))(
    'skips a dependent in %s',
    (status) => {
      const before = buildTestState({
        workItems: [blocker, buildWorkItem({ id: 'd1', status, blockedBy: ['blocker'] })],
      });
      const event = buildWorkItemChanged({ ...blocker, status: 'closed' }, 'review');
      expect(runHandlerAfterUpdate(handleDependencyResolution, event, before)).toEqual([]);
    },
  );

  it('skips refinement dependents', () => {
    const before = buildTestState({
      workItems: [blocker, buildWorkItem({ id: 'd1', kind: 'refinement', blockedBy: ['blocker'] })],
    });
    const event = buildWorkItemChanged({ ...blocker, status: 'approved' }, 'review');
    expect(runHandlerAfterUpdate(handleDependencyResolution, event, before)).toEqual([]);
  });

  it.each(WORK_ITEM_STATUSES.filter((status) => status !== 'approved' && status !== 'closed'))(
    'does nothing when the item moves to %s',
    (status) => {
      const before = buildTestState({
        workItems: [blocker, buildWorkItem({ id: 'd1', blockedBy: ['blocker'] })],
      });
      const event = buildWorkItemChanged({ ...blocker, status }, 'review');
      expect(runHandlerAfterUpdate(handleDependencyResolution, event, before)).toEqual([]);
    },
  );

  it('does nothing when the blocker disappears (a missing blocker is unresolved)', () => {
    const before = buildTestState({
      workItems: [blocker, buildWorkItem({ id: 'd1', blockedBy: ['blocker'] })],
    });
    expect(
      runHandlerAfterUpdate(handleDependencyResolution, buildWorkItemRemoved('blocker', 'review'), before),
    ).toEqual([]);
  });
});
