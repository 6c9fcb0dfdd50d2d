import { describe, expect, it } from 'vitest';
import {
  buildSampleEventList,
  buildSampleState,
  runHandlerAfterUpdate,
  SAMPLE_IDS,
} from '../../../test/support/engine/index.ts';
import {
  buildImplementorRun,
  buildPlannerRun,
  buildReviewerRun,
  buildRevision,
  buildSpec,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import { type EngineCommand, type EngineEventType, WORK_ITEM_STATUSES } from '../../domain/index.ts';
import { handleUserDispatch } from './handle-user-dispatch.ts';

describe('handleUserDispatch on every sample event', () => {
  const expected: Partial<Record<EngineEventType, EngineCommand[]>> = {
    userRequestedImplementorRun: [
      {
        type: 'transitionWorkItemStatus',
        workItemID: SAMPLE_IDS.blockedItem,
        newStatus: 'ready',
        cause: 'user',
      },
    ],
    userRequestedReviewerRun: [
      {
        type: 'requestReviewerRun',
        workItemID: SAMPLE_IDS.awaitingReviewItem,
        revisionID: SAMPLE_IDS.awaitingReviewRevision,
      },
    ],
    userCancelledRun: [{ type: 'cancelImplementorRun', workItemID: SAMPLE_IDS.implementingItem }],
    userTransitionedStatus: [
      {
        type: 'transitionWorkItemStatus',
        workItemID: SAMPLE_IDS.blockedItem,
        newStatus: 'pending',
        cause: 'user',
      },
    ],
    userRequestedMerge: [
      {
        type: 'mergeRevision',
        workItemID: SAMPLE_IDS.approvedItem,
        revisionID: SAMPLE_IDS.approvedRevision,
      },
    ],
  };

  it.each(buildSampleEventList())('$type', (event) => {
    expect(runHandlerAfterUpdate(handleUserDispatch, event, buildSampleState())).toEqual(
      expected[event.type] ?? [],
    );
  });
});

describe('handleUserDispatch on userRequestedImplementorRun', () => {
  const requestFor = (status: (typeof WORK_ITEM_STATUSES)[number], kind: 'task' | 'refinement' = 'task') =>
    runHandlerAfterUpdate(
      handleUserDispatch,
      { type: 'userRequestedImplementorRun', workItemID: 'wi-1' },
      buildTestState({ workItems: [buildWorkItem({ id: 'wi-1', status, kind })] }),
    );

  it('requests the run for a ready task', () => {
    expect(requestFor('ready')).toEqual([{ type: 'requestImplementorRun', workItemID: 'wi-1' }]);
  });

  it.each(['pending', 'blocked', 'needs-refinement'] as const)(
    'makes a %s task ready (the rest follows)',
    (status) => {
      expect(requestFor(status)).toEqual([
        { type: 'transitionWorkItemStatus', workItemID: 'wi-1', newStatus: 'ready', cause: 'user' },
      ]);
    },
  );

  it.each(['in-progress', 'review', 'approved', 'closed'] as const)(
    'does nothing for a task in %s',
    (status) => {
      expect(requestFor(status)).toEqual([]);
    },
  );

  it.each(WORK_ITEM_STATUSES)('never dispatches a refinement item (%s)', (status) => {
    expect(requestFor(status, 'refinement')).toEqual([]);
  });

  it('does nothing for an unknown item', () => {
    expect(
      runHandlerAfterUpdate(
        handleUserDispatch,
        { type: 'userRequestedImplementorRun', workItemID: 'wi-9' },
        buildTestState(),
      ),
    ).toEqual([]);
  });
});

describe('handleUserDispatch on userRequestedReviewerRun', () => {
  const requestFor = (workItem: ReturnType<typeof buildWorkItem> | null) =>
    runHandlerAfterUpdate(
      handleUserDispatch,
      { type: 'userRequestedReviewerRun', workItemID: 'wi-1' },
      buildTestState({ workItems: workItem === null ? [] : [workItem] }),
    );

  it('requests a review of the linked revision for an item in review', () => {
    expect(requestFor(buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: 'rev-3' }))).toEqual([
      { type: 'requestReviewerRun', workItemID: 'wi-1', revisionID: 'rev-3' },
    ]);
  });

  it('does nothing without a linked revision', () => {
    expect(requestFor(buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: null }))).toEqual([]);
  });

  it.each(WORK_ITEM_STATUSES.filter((status) => status !== 'review'))(
    'does nothing for an item in %s',
    (status) => {
      expect(requestFor(buildWorkItem({ id: 'wi-1', status, linkedRevision: 'rev-3' }))).toEqual([]);
    },
  );

  it('does nothing for an unknown item', () => {
    expect(requestFor(null)).toEqual([]);
  });
});

describe('handleUserDispatch on userRequestedMerge', () => {
  const mergeFor = (
    workItem: ReturnType<typeof buildWorkItem> | null,
    revisions: ReturnType<typeof buildRevision>[] = [buildRevision({ id: 'rev-3', workItemID: 'wi-1' })],
  ) =>
    runHandlerAfterUpdate(
      handleUserDispatch,
      { type: 'userRequestedMerge', workItemID: 'wi-1' },
      buildTestState({ workItems: workItem === null ? [] : [workItem], revisions }),
    );

  it('merges the linked revision of an approved item', () => {
    expect(mergeFor(buildWorkItem({ id: 'wi-1', status: 'approved', linkedRevision: 'rev-3' }))).toEqual([
      { type: 'mergeRevision', workItemID: 'wi-1', revisionID: 'rev-3' },
    ]);
  });

  it.each(WORK_ITEM_STATUSES.filter((status) => status !== 'approved'))(
    'does nothing for an item in %s',
    (status) => {
      expect(mergeFor(buildWorkItem({ id: 'wi-1', status, linkedRevision: 'rev-3' }))).toEqual([]);
    },
  );

  it('does nothing without a linked revision', () => {
    expect(mergeFor(buildWorkItem({ id: 'wi-1', status: 'approved', linkedRevision: null }))).toEqual([]);
  });

  it('does nothing when the linked revision is no longer open (not in the store)', () => {
    expect(mergeFor(buildWorkItem({ id: 'wi-1', status: 'approved', linkedRevision: 'rev-3' }), [])).toEqual(
      [],
    );
  });

  it('does nothing for an unknown item', () => {
    expect(mergeFor(null)).toEqual([]);
  });
});

describe('handleUserDispatch on userCancelledRun', () => {
  const cancel = (run: Parameters<typeof buildTestState>[0]) =>
    runHandlerAfterUpdate(
      handleUserDispatch,
      { type: 'userCancelledRun', sessionID: 's-1' },
      buildTestState(run),
    );

  it.each(['requested', 'running'] as const)('cancels a %s run through its role', (status) => {
    expect(cancel({ agentRuns: [buildPlannerRun({ sessionID: 's-1', status })] })).toEqual([
      { type: 'cancelPlannerRun' },
    ]);
    expect(
      cancel({ agentRuns: [buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-4', status })] }),
    ).toEqual([{ type: 'cancelImplementorRun', workItemID: 'wi-4' }]);
    expect(
      cancel({ agentRuns: [buildReviewerRun({ sessionID: 's-1', workItemID: 'wi-5', status })] }),
    ).toEqual([{ type: 'cancelReviewerRun', workItemID: 'wi-5' }]);
  });

  it('does nothing for an unknown session', () => {
    expect(cancel({ agentRuns: [buildImplementorRun({ sessionID: 's-2' })] })).toEqual([]);
  });

  it.each(['completed', 'failed', 'timed-out', 'cancelled'] as const)(
    'does nothing for a %s run (a cancel would hit the next run of the item)',
    (status) => {
      expect(
        cancel({
          agentRuns: [
            buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-4', status }),
            buildImplementorRun({ sessionID: 's-2', workItemID: 'wi-4', status: 'running' }),
          ],
        }),
      ).toEqual([]);
    },
  );
});

describe('handleUserDispatch on userTransitionedStatus', () => {
  it.each(WORK_ITEM_STATUSES)('asks for the transition to %s with cause user', (newStatus) => {
    const before = buildTestState({ workItems: [buildWorkItem({ id: 'wi-1', status: 'blocked' })] });
    expect(
      runHandlerAfterUpdate(
        handleUserDispatch,
        { type: 'userTransitionedStatus', workItemID: 'wi-1', newStatus },
        before,
      ),
    ).toEqual([{ type: 'transitionWorkItemStatus', workItemID: 'wi-1', newStatus, cause: 'user' }]);
  });
});

describe('handleUserDispatch on userRequestedPlannerRun', () => {
  const event = { type: 'userRequestedPlannerRun' } as const;
  const specs = [
    buildSpec({ filePath: 'a.md', blobSHA: 'a2' }),
    buildSpec({ filePath: 'b.md', blobSHA: 'b1' }),
  ];

  it('requests a planner run with every approved spec when one is not planned at its current version', () => {
    const state = buildTestState({ specs, lastPlannedSHAs: { 'a.md': 'a1', 'b.md': 'b1' } });
    expect(runHandlerAfterUpdate(handleUserDispatch, event, state)).toEqual([
      { type: 'requestPlannerRun', specPaths: ['a.md', 'b.md'], specSHAs: { 'a.md': 'a2', 'b.md': 'b1' } },
    ]);
  });

  it('does nothing when every approved spec is planned at its current version', () => {
    const state = buildTestState({ specs, lastPlannedSHAs: { 'a.md': 'a2', 'b.md': 'b1' } });
    expect(runHandlerAfterUpdate(handleUserDispatch, event, state)).toEqual([]);
  });

  it('does nothing while a planner run is active', () => {
    const state = buildTestState({
      specs,
      lastPlannedSHAs: {},
      agentRuns: [buildPlannerRun({ sessionID: 'p1', status: 'running' })],
    });
    expect(runHandlerAfterUpdate(handleUserDispatch, event, state)).toEqual([]);
  });
});
