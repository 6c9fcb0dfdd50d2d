import { describe, expect, it } from 'vitest';
import {
  buildSampleEventList,
  buildSampleState,
  runHandlerAfterUpdate,
} from '../../../test/support/engine/index.ts';
import {
  buildImplementorRun,
  buildReviewerRun,
  buildTestState,
  buildWorkItem,
  buildWorkItemChanged,
} from '../../../test/support/shared/builders/index.ts';
import { WORK_ITEM_STATUSES } from '../../domain/index.ts';
import { handleOrphanedWorkItem } from './handle-orphaned-work-item.ts';

const toPending = [
  { type: 'transitionWorkItemStatus', workItemID: 'wi-1', newStatus: 'pending', cause: 'orphaned' },
];
const inProgress = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status: 'in-progress' }), null);

describe('handleOrphanedWorkItem on every sample event', () => {
  it.each(buildSampleEventList())('$type', (event) => {
    expect(runHandlerAfterUpdate(handleOrphanedWorkItem, event, buildSampleState())).toEqual([]);
  });
});

describe('handleOrphanedWorkItem on workItemChanged', () => {
  it('sends an in-progress item with no run back to pending (e.g. after a restart)', () => {
    expect(runHandlerAfterUpdate(handleOrphanedWorkItem, inProgress, buildTestState())).toEqual(toPending);
  });

  it.each(['completed', 'failed', 'timed-out', 'cancelled'] as const)(
    'treats an item whose implementor run is %s as orphaned',
    (status) => {
      const before = buildTestState({ agentRuns: [buildImplementorRun({ workItemID: 'wi-1', status })] });
      expect(runHandlerAfterUpdate(handleOrphanedWorkItem, inProgress, before)).toEqual(toPending);
    },
  );

  it.each(['requested', 'running'] as const)('leaves it alone while its implementor run is %s', (status) => {
    const before = buildTestState({ agentRuns: [buildImplementorRun({ workItemID: 'wi-1', status })] });
    expect(runHandlerAfterUpdate(handleOrphanedWorkItem, inProgress, before)).toEqual([]);
  });

  it("is not fooled by another item's implementor or by a reviewer run", () => {
    const before = buildTestState({
      agentRuns: [
        buildImplementorRun({ sessionID: 'i', workItemID: 'wi-2' }),
        buildReviewerRun({ sessionID: 'r', workItemID: 'wi-1' }),
      ],
    });
    expect(runHandlerAfterUpdate(handleOrphanedWorkItem, inProgress, before)).toEqual(toPending);
  });

  it.each(WORK_ITEM_STATUSES.filter((status) => status !== 'in-progress'))(
    'ignores an item now %s',
    (status) => {
      const event = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status }), 'in-progress');
      expect(runHandlerAfterUpdate(handleOrphanedWorkItem, event, buildTestState())).toEqual([]);
    },
  );
});
