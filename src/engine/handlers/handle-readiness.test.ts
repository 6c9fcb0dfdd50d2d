import { describe, expect, it } from 'vitest';
import {
  buildHandlerConfig,
  buildSampleEventList,
  buildSampleState,
  runHandlerAfterUpdate,
} from '../../../test/support/engine/index.ts';
import {
  buildTestState,
  buildWorkItem,
  buildWorkItemChanged,
  buildWorkItemRemoved,
} from '../../../test/support/shared/builders/index.ts';
import { WORK_ITEM_STATUSES } from '../../domain/index.ts';
import { handleReadiness } from './handle-readiness.ts';

describe('handleReadiness on every sample event', () => {
  // The sample workItemChanged closes an item, so readiness never fires on the samples.
  it.each(buildSampleEventList())('$type', (event) => {
    expect(runHandlerAfterUpdate(handleReadiness, event, buildSampleState())).toEqual([]);
  });
});

describe('handleReadiness on workItemChanged', () => {
  const toReady = (workItemID: string) => [
    { type: 'transitionWorkItemStatus', workItemID, newStatus: 'ready', cause: 'readiness' },
  ];

  it.each([null, 'in-progress', 'review', 'blocked', 'pending'] as const)(
    'makes an unblocked pending task ready (old status %s)',
    (oldStatus) => {
      const event = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status: 'pending' }), oldStatus);
      expect(runHandlerAfterUpdate(handleReadiness, event, buildTestState())).toEqual(toReady('wi-1'));
    },
  );

  it('makes it ready when every blocker is approved or closed', () => {
    const before = buildTestState({
      workItems: [
        buildWorkItem({ id: 'b1', status: 'approved' }),
        buildWorkItem({ id: 'b2', status: 'closed' }),
      ],
    });
    const event = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', blockedBy: ['b1', 'b2'] }));
    expect(runHandlerAfterUpdate(handleReadiness, event, before)).toEqual(toReady('wi-1'));
  });

  it("with dependencies.waitFor 'merged', leaves it pending while a blocker is only approved", () => {
    const before = buildTestState({
      workItems: [
        buildWorkItem({ id: 'b1', status: 'approved' }),
        buildWorkItem({ id: 'b2', status: 'closed' }),
      ],
    });
    const event = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', blockedBy: ['b1', 'b2'] }));
    const merged = buildHandlerConfig({ dependencyWaitFor: 'merged' });
    expect(runHandlerAfterUpdate(handleReadiness, event, before, merged)).toEqual([]);
  });

  it('leaves it pending while a blocker is open', () => {
    const before = buildTestState({
      workItems: [
        buildWorkItem({ id: 'b1', status: 'closed' }),
        buildWorkItem({ id: 'b2', status: 'review' }),
      ],
    });
    const event = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', blockedBy: ['b1', 'b2'] }));
    expect(runHandlerAfterUpdate(handleReadiness, event, before)).toEqual([]);
  });

  it('leaves it pending while a blocker is unknown to the store', () => {
    const event = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', blockedBy: ['missing'] }));
    expect(runHandlerAfterUpdate(handleReadiness, event, buildTestState())).toEqual([]);
  });

  it('never makes a refinement item ready', () => {
    const event = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', kind: 'refinement' }));
    expect(runHandlerAfterUpdate(handleReadiness, event, buildTestState())).toEqual([]);
  });

  it.each(WORK_ITEM_STATUSES.filter((status) => status !== 'pending'))('ignores an item now %s', (status) => {
    const event = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status }), 'pending');
    expect(runHandlerAfterUpdate(handleReadiness, event, buildTestState())).toEqual([]);
  });

  it('ignores a removed item', () => {
    const before = buildTestState({ workItems: [buildWorkItem({ id: 'wi-1' })] });
    expect(runHandlerAfterUpdate(handleReadiness, buildWorkItemRemoved('wi-1', 'pending'), before)).toEqual(
      [],
    );
  });
});
