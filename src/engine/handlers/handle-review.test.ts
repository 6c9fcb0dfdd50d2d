import { describe, expect, it } from 'vitest';
import {
  buildHandlerConfig,
  buildSampleEventList,
  buildSampleEvents,
  buildSampleState,
  runHandlerAfterUpdate,
  SAMPLE_IDS,
} from '../../../test/support/engine/index.ts';
import {
  buildImplementorRun,
  buildPipeline,
  buildReviewerResult,
  buildReviewerRun,
  buildRevision,
  buildRevisionChanged,
  buildTestState,
  buildWorkItem,
  buildWorkItemChanged,
} from '../../../test/support/shared/builders/index.ts';
import {
  type EngineCommand,
  type EngineEvent,
  type EngineEventType,
  type ReviewerFailed,
  WORK_ITEM_STATUSES,
  type WorkItemStatus,
} from '../../domain/index.ts';
import type { FailureRecord } from '../state-store/engine-state.ts';
import { handleReview } from './handle-review.ts';

describe('handleReview on every sample event', () => {
  const samples = buildSampleEvents();
  const expected: Partial<Record<EngineEventType, EngineCommand[]>> = {
    // The awaiting item's pipeline turns green and no reviewer is active for it.
    revisionChanged: [
      {
        type: 'requestReviewerRun',
        workItemID: SAMPLE_IDS.awaitingReviewItem,
        revisionID: SAMPLE_IDS.awaitingReviewRevision,
      },
    ],
    // needs-changes: the item had 1 round, now 2 ≤ 3 → back for rework.
    reviewerCompleted: [
      {
        type: 'applyReviewerResult',
        workItemID: SAMPLE_IDS.reviewingItem,
        revisionID: SAMPLE_IDS.reviewingRevision,
        review: samples.reviewerCompleted.result.review,
        needsChangesStatus: 'pending',
      },
    ],
    // First failure: the review itself is retried.
    reviewerFailed: [
      {
        type: 'requestReviewerRun',
        workItemID: SAMPLE_IDS.reviewingItem,
        revisionID: SAMPLE_IDS.reviewingRevision,
      },
    ],
  };

  it.each(buildSampleEventList())('$type', (event) => {
    expect(runHandlerAfterUpdate(handleReview, event, buildSampleState())).toEqual(
      expected[event.type] ?? [],
    );
  });
});

describe('handleReview on revisionChanged', () => {
  const inReview = buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: 'rev-1' });
  const green = buildRevisionChanged(buildRevision({ id: 'rev-1', workItemID: 'wi-1' }), 'pending');
  const request = [{ type: 'requestReviewerRun', workItemID: 'wi-1', revisionID: 'rev-1' }];

  it('requests a reviewer when the pipeline turns green and the item is in review', () => {
    expect(runHandlerAfterUpdate(handleReview, green, buildTestState({ workItems: [inReview] }))).toEqual(
      request,
    );
  });

  it('also on the first sighting of a green revision', () => {
    const event = buildRevisionChanged(buildRevision({ id: 'rev-1', workItemID: 'wi-1' }), null);
    expect(runHandlerAfterUpdate(handleReview, event, buildTestState({ workItems: [inReview] }))).toEqual(
      request,
    );
  });

  it('reviews the revision that changed, even if the item links another one', () => {
    const event = buildRevisionChanged(buildRevision({ id: 'rev-2', workItemID: 'wi-1' }), 'pending');
    expect(runHandlerAfterUpdate(handleReview, event, buildTestState({ workItems: [inReview] }))).toEqual([
      { type: 'requestReviewerRun', workItemID: 'wi-1', revisionID: 'rev-2' },
    ]);
  });

  it('does nothing when the pipeline is pending', () => {
    const event = buildRevisionChanged(
      buildRevision({ id: 'rev-1', pipeline: buildPipeline('pending') }),
      'success',
    );
    expect(runHandlerAfterUpdate(handleReview, event, buildTestState({ workItems: [inReview] }))).toEqual([]);
  });

  it('requests no reviewer when the pipeline is red (the item goes back for rework instead)', () => {
    const event = buildRevisionChanged(
      buildRevision({ id: 'rev-1', pipeline: buildPipeline('failure') }),
      'success',
    );
    const commands = runHandlerAfterUpdate(handleReview, event, buildTestState({ workItems: [inReview] }));
    expect(commands.map((command) => command.type)).not.toContain('requestReviewerRun');
  });

  it('does nothing when the pipeline is unknown, even if it was green before', () => {
    const before = buildTestState({ workItems: [inReview], revisions: [buildRevision({ id: 'rev-1' })] });
    const event = buildRevisionChanged(buildRevision({ id: 'rev-1', pipeline: null }), 'success');
    expect(runHandlerAfterUpdate(handleReview, event, before)).toEqual([]);
  });

  it('does nothing when the revision was removed', () => {
    const before = buildTestState({ workItems: [inReview], revisions: [buildRevision({ id: 'rev-1' })] });
    const event: EngineEvent = {
      type: 'revisionChanged',
      revisionID: 'rev-1',
      workItemID: 'wi-1',
      revision: null,
      oldPipelineStatus: 'success',
      newPipelineStatus: null,
    };
    expect(runHandlerAfterUpdate(handleReview, event, before)).toEqual([]);
  });

  it('does nothing for a revision linked to no work item, or to one not in the store', () => {
    const unlinked = buildRevisionChanged(buildRevision({ id: 'rev-1', workItemID: null }));
    expect(runHandlerAfterUpdate(handleReview, unlinked, buildTestState({ workItems: [inReview] }))).toEqual(
      [],
    );
    expect(runHandlerAfterUpdate(handleReview, green, buildTestState())).toEqual([]);
  });

  it.each(WORK_ITEM_STATUSES.filter((status) => status !== 'review'))(
    'does nothing when the item is %s',
    (status) => {
      const before = buildTestState({ workItems: [{ ...inReview, status }] });
      expect(runHandlerAfterUpdate(handleReview, green, before)).toEqual([]);
    },
  );

  it.each(['requested', 'running'] as const)('does nothing while a reviewer is %s for the item', (status) => {
    const before = buildTestState({
      workItems: [inReview],
      agentRuns: [buildReviewerRun({ workItemID: 'wi-1', status })],
    });
    expect(runHandlerAfterUpdate(handleReview, green, before)).toEqual([]);
  });

  it('requests a new reviewer once the earlier review run ended', () => {
    const before = buildTestState({
      workItems: [inReview],
      agentRuns: [buildReviewerRun({ workItemID: 'wi-1', status: 'completed' })],
    });
    expect(runHandlerAfterUpdate(handleReview, green, before)).toEqual(request);
  });

  it('only an active reviewer holds it back (the executor guards other roles)', () => {
    const before = buildTestState({
      workItems: [inReview],
      agentRuns: [buildImplementorRun({ workItemID: 'wi-1' })],
    });
    expect(runHandlerAfterUpdate(handleReview, green, before)).toEqual(request);
  });
});

describe('handleReview on red checks', () => {
  const inReview = buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: 'rev-1' });
  const red = buildRevision({ id: 'rev-1', workItemID: 'wi-1', pipeline: buildPipeline('failure') });
  const turnedRed = buildRevisionChanged(red, 'pending');

  function commandsAfter(before: ReturnType<typeof buildTestState>, event: EngineEvent = turnedRed) {
    return runHandlerAfterUpdate(handleReview, event, before);
  }

  it('sends the item back for rework with a comment holding the failure (round 1 of 2)', () => {
    const commands = commandsAfter(buildTestState({ workItems: [inReview] }));
    expect(commands.map((command) => command.type)).toEqual([
      'commentOnWorkItem',
      'transitionWorkItemStatus',
    ]);
    expect(commands[1]).toEqual({
      type: 'transitionWorkItemStatus',
      workItemID: 'wi-1',
      newStatus: 'pending',
      cause: 'checks-failed',
    });
    const comment = commands[0];
    expect(comment?.type === 'commentOnWorkItem' && comment.body).toContain('rework round 1 of 2');
    expect(comment?.type === 'commentOnWorkItem' && comment.body).toContain('unit tests');
  });

  it('still reworks on the last allowed round, and parks the item past the cap', () => {
    const atCap = commandsAfter(buildTestState({ workItems: [inReview], checkRounds: { 'wi-1': 1 } }));
    expect(atCap[1]).toMatchObject({ newStatus: 'pending', cause: 'checks-failed' });
    const past = commandsAfter(buildTestState({ workItems: [inReview], checkRounds: { 'wi-1': 2 } }));
    expect(past[1]).toMatchObject({ newStatus: 'needs-refinement', cause: 'checks-failed' });
    const comment = past[0];
    expect(comment?.type === 'commentOnWorkItem' && comment.body).toContain('now needs a human');
    expect(comment?.type === 'commentOnWorkItem' && comment.body).toContain('https://ci.example/runs/1');
  });

  it('follows the configured cap', () => {
    const before = buildTestState({ workItems: [inReview], checkRounds: { 'wi-1': 2 } });
    const commands = runHandlerAfterUpdate(
      handleReview,
      turnedRed,
      before,
      buildHandlerConfig({ maxCheckRounds: 5 }),
    );
    expect(commands[1]).toMatchObject({ newStatus: 'pending' });
  });

  it('also on the first sighting of a red revision (a restart)', () => {
    const commands = commandsAfter(
      buildTestState({ workItems: [inReview] }),
      buildRevisionChanged(red, null),
    );
    expect(commands[1]).toMatchObject({ newStatus: 'pending' });
  });

  it('does nothing when the revision was already red (a repeated poll, an edit)', () => {
    const before = buildTestState({ workItems: [inReview], revisions: [red] });
    expect(commandsAfter(before, buildRevisionChanged({ ...red, title: 'Renamed' }, 'failure'))).toEqual([]);
  });

  it.each(WORK_ITEM_STATUSES.filter((status) => status !== 'review'))(
    'does nothing when the item is %s',
    (status) => {
      expect(commandsAfter(buildTestState({ workItems: [{ ...inReview, status }] }))).toEqual([]);
    },
  );

  it('does nothing for a revision that is not the one the item links', () => {
    const other = buildRevision({ id: 'rev-2', workItemID: 'wi-1', pipeline: buildPipeline('failure') });
    const before = buildTestState({ workItems: [inReview], revisions: [buildRevision({ id: 'rev-1' })] });
    expect(commandsAfter(before, buildRevisionChanged(other, 'pending'))).toEqual([]);
  });

  it('does nothing while an implementor is active for the item', () => {
    const before = buildTestState({
      workItems: [inReview],
      agentRuns: [buildImplementorRun({ workItemID: 'wi-1', status: 'running' })],
    });
    expect(commandsAfter(before)).toEqual([]);
  });
});

describe('handleReview on workItemChanged', () => {
  const toReview = (linkedRevision: string | null = 'rev-1') =>
    buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision }), 'in-progress');
  const request = [{ type: 'requestReviewerRun', workItemID: 'wi-1', revisionID: 'rev-1' }];

  it('requests a reviewer when the item enters review with a green linked revision', () => {
    const before = buildTestState({ revisions: [buildRevision({ id: 'rev-1', workItemID: 'wi-1' })] });
    expect(runHandlerAfterUpdate(handleReview, toReview(), before)).toEqual(request);
  });

  it('also when the item stays in review and gains its link (the poller sees the link later)', () => {
    const before = buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: null })],
      revisions: [buildRevision({ id: 'rev-1', workItemID: 'wi-1' })],
    });
    const event = buildWorkItemChanged(
      buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: 'rev-1' }),
      'review',
    );
    expect(runHandlerAfterUpdate(handleReview, event, before)).toEqual(request);
  });

  // A linked pipeline already red sends the item back for rework (below: fast CI).
  it('does nothing while the linked pipeline is pending', () => {
    const before = buildTestState({
      revisions: [buildRevision({ id: 'rev-1', pipeline: buildPipeline('pending') })],
    });
    expect(runHandlerAfterUpdate(handleReview, toReview(), before)).toEqual([]);
  });

  it('does nothing while the linked pipeline is unknown', () => {
    const before = buildTestState({ revisions: [buildRevision({ id: 'rev-1', pipeline: null })] });
    expect(runHandlerAfterUpdate(handleReview, toReview(), before)).toEqual([]);
  });

  it('does nothing without a linked revision, or when it is not in the store', () => {
    const before = buildTestState({ revisions: [buildRevision({ id: 'rev-1', workItemID: 'wi-1' })] });
    expect(runHandlerAfterUpdate(handleReview, toReview(null), before)).toEqual([]);
    expect(runHandlerAfterUpdate(handleReview, toReview('rev-9'), before)).toEqual([]);
  });

  it('does nothing while a reviewer is active for the item', () => {
    const before = buildTestState({
      revisions: [buildRevision({ id: 'rev-1' })],
      agentRuns: [buildReviewerRun({ workItemID: 'wi-1', status: 'requested' })],
    });
    expect(runHandlerAfterUpdate(handleReview, toReview(), before)).toEqual([]);
  });

  it.each(WORK_ITEM_STATUSES.filter((status) => status !== 'review'))(
    'does nothing when the item moves to %s',
    (status) => {
      const before = buildTestState({ revisions: [buildRevision({ id: 'rev-1' })] });
      const event = buildWorkItemChanged(
        buildWorkItem({ id: 'wi-1', status, linkedRevision: 'rev-1' }),
        'review',
      );
      expect(runHandlerAfterUpdate(handleReview, event, before)).toEqual([]);
    },
  );
});

describe('handleReview on reviewerCompleted', () => {
  const completed = (verdict: 'approve' | 'needs-changes') => ({
    ...buildSampleEvents().reviewerCompleted,
    sessionID: 's-1',
    workItemID: 'wi-1',
    revisionID: 'rev-1',
    result: buildReviewerResult(verdict),
  });
  const stateWithRounds = (rounds: number) =>
    buildTestState({
      agentRuns: [buildReviewerRun({ sessionID: 's-1', workItemID: 'wi-1', revisionID: 'rev-1' })],
      reviewRounds: rounds === 0 ? {} : { 'wi-1': rounds },
    });
  const applied = (
    verdict: 'approve' | 'needs-changes',
    needsChangesStatus: 'pending' | 'needs-refinement',
  ) => [
    {
      type: 'applyReviewerResult',
      workItemID: 'wi-1',
      revisionID: 'rev-1',
      review: buildReviewerResult(verdict).review,
      needsChangesStatus,
    },
  ];

  it.each([0, 1, 2])(
    'sends needs-changes back for rework while rounds stay within the cap (%i earlier)',
    (rounds) => {
      expect(
        runHandlerAfterUpdate(handleReview, completed('needs-changes'), stateWithRounds(rounds)),
      ).toEqual(applied('needs-changes', 'pending'));
    },
  );

  it.each([3, 7])('sends needs-changes to a human once the cap is passed (%i earlier rounds)', (rounds) => {
    expect(runHandlerAfterUpdate(handleReview, completed('needs-changes'), stateWithRounds(rounds))).toEqual(
      applied('needs-changes', 'needs-refinement'),
    );
  });

  it('follows the configured round cap', () => {
    expect(
      runHandlerAfterUpdate(
        handleReview,
        completed('needs-changes'),
        stateWithRounds(0),
        buildHandlerConfig({ maxReviewRounds: 0 }),
      ),
    ).toEqual(applied('needs-changes', 'needs-refinement'));
  });

  it('applies an approval (rounds are reset by the update)', () => {
    expect(runHandlerAfterUpdate(handleReview, completed('approve'), stateWithRounds(5))).toEqual(
      applied('approve', 'pending'),
    );
  });
});

describe('handleReview on reviewerFailed', () => {
  const failed = (overrides: Partial<ReviewerFailed> = {}): ReviewerFailed => ({
    type: 'reviewerFailed',
    sessionID: 's-1',
    logFilePath: null,
    usage: null,
    at: 5_000,
    reason: 'error',
    error: 'structured output missing',
    workItemID: 'wi-1',
    revisionID: 'rev-1',
    ...overrides,
  });
  const record = (attempts: number): FailureRecord => ({
    attempts,
    lastReason: 'timeout',
    lastError: 'earlier',
    lastFailedAt: 1,
    lastSessionID: 's-0',
  });
  const stateWith = (
    previousAttempts: number,
    run = buildReviewerRun({ sessionID: 's-1', workItemID: 'wi-1' }),
  ) =>
    buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: 'rev-1' })],
      agentRuns: [{ ...run, logFilePath: null }],
      failures: previousAttempts === 0 ? {} : { 'reviewer:wi-1': record(previousAttempts) },
    });

  it.each([
    ['error', 0],
    ['timeout', 1],
  ] as const)('retries the review after a %s below the cap (%i earlier failures)', (reason, previous) => {
    expect(runHandlerAfterUpdate(handleReview, failed({ reason }), stateWith(previous))).toEqual([
      { type: 'requestReviewerRun', workItemID: 'wi-1', revisionID: 'rev-1' },
    ]);
  });

  it('blocks the item with a comment once the attempts are exhausted', () => {
    const commands = runHandlerAfterUpdate(
      handleReview,
      failed({ reason: 'timeout', error: 'stalled' }),
      stateWith(2),
    );
    expect(commands).toEqual([
      {
        type: 'transitionWorkItemStatus',
        workItemID: 'wi-1',
        newStatus: 'blocked',
        cause: 'retries-exhausted',
      },
      { type: 'commentOnWorkItem', workItemID: 'wi-1', body: expect.any(String) },
    ]);
    const body = (commands[1] as { body: string }).body;
    expect(body).toContain('reviewer failed 3 times in a row (limit 3)');
    expect(body).toContain('Last failure: timed out');
    expect(body).toContain('Error: stalled');
    expect(body).toContain('Session: s-1');
    expect(body).not.toContain('Log:');
  });

  it('blocks the item with a comment when the user cancelled the review', () => {
    const run = buildReviewerRun({ sessionID: 's-1', workItemID: 'wi-1', cancelRequestedBy: 'user' });
    expect(runHandlerAfterUpdate(handleReview, failed({ reason: 'cancelled' }), stateWith(0, run))).toEqual([
      { type: 'transitionWorkItemStatus', workItemID: 'wi-1', newStatus: 'blocked', cause: 'run-cancelled' },
      {
        type: 'commentOnWorkItem',
        workItemID: 'wi-1',
        body: expect.stringContaining('reviewer run (session s-1) was cancelled by a user'),
      },
    ]);
  });

  it.each([null, 'shutdown'] as const)(
    'does nothing when the review was cancelled by %s',
    (cancelRequestedBy) => {
      const run = buildReviewerRun({ sessionID: 's-1', workItemID: 'wi-1', cancelRequestedBy });
      expect(runHandlerAfterUpdate(handleReview, failed({ reason: 'cancelled' }), stateWith(2, run))).toEqual(
        [],
      );
    },
  );
});

describe('handleReview when the item leaves review while its reviewer runs', () => {
  const reviewing = buildReviewerRun({ sessionID: 's-1', workItemID: 'wi-1', revisionID: 'rev-1' });
  const stateIn = (status: WorkItemStatus, runs = [reviewing]) =>
    buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', status, linkedRevision: 'rev-1' })],
      revisions: [buildRevision({ id: 'rev-1', workItemID: 'wi-1' })],
      agentRuns: runs,
    });
  const movedTo = (status: WorkItemStatus) =>
    buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status, linkedRevision: 'rev-1' }), 'review');
  const cancel = [{ type: 'cancelReviewerRun', workItemID: 'wi-1' }];

  it.each(['closed', 'approved', 'blocked', 'needs-refinement', 'pending', 'ready'] as const)(
    'moved to %s: the reviewer is cancelled',
    (status) => {
      expect(runHandlerAfterUpdate(handleReview, movedTo(status), stateIn('review'))).toEqual(cancel);
    },
  );

  it('moved to waiting-for-input (the reviewer asking), or with no reviewer at work: nothing', () => {
    expect(runHandlerAfterUpdate(handleReview, movedTo('waiting-for-input'), stateIn('review'))).toEqual([]);
    expect(runHandlerAfterUpdate(handleReview, movedTo('closed'), stateIn('review', []))).toEqual([]);
  });

  it('a stale event (the item is already elsewhere): nothing', () => {
    const before = buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: 'rev-1' })],
      agentRuns: [reviewing],
    });
    const event = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status: 'closed' }), 'review');
    // The state already holds a later change (back in review): this event is stale.
    const after = handleReview(event, before, buildHandlerConfig());
    expect(after).toEqual([]);
  });

  it('a verdict that arrives anyway becomes a comment; the item stays where it was moved', () => {
    const event = {
      ...buildSampleEvents().reviewerCompleted,
      sessionID: 's-1',
      workItemID: 'wi-1',
      revisionID: 'rev-1',
      result: buildReviewerResult('approve'),
    };
    const commands = runHandlerAfterUpdate(handleReview, event, stateIn('closed'));
    expect(commands).toEqual([
      {
        type: 'commentOnWorkItem',
        workItemID: 'wi-1',
        body: expect.stringContaining(
          'moved to closed; its approve verdict on revision rev-1 was not applied',
        ),
      },
    ]);
  });

  it('its failure (the cancel) is neither retried nor parked', () => {
    const failed: ReviewerFailed = {
      type: 'reviewerFailed',
      sessionID: 's-1',
      logFilePath: null,
      usage: null,
      at: 5_000,
      reason: 'cancelled',
      error: 'cancelled',
      workItemID: 'wi-1',
      revisionID: 'rev-1',
    };
    expect(runHandlerAfterUpdate(handleReview, failed, stateIn('pending'))).toEqual([]);
    expect(runHandlerAfterUpdate(handleReview, { ...failed, reason: 'error' }, stateIn('closed'))).toEqual(
      [],
    );
  });
});

describe('handleReview when the verdict cannot be written', () => {
  const inReview = buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: 'rev-1' });
  const failed = (workItemID = 'wi-1'): EngineEvent => ({
    type: 'commandFailed',
    command: {
      type: 'applyReviewerResult',
      workItemID,
      revisionID: 'rev-1',
      review: buildReviewerResult('approve').review,
      needsChangesStatus: 'pending',
    },
    error: 'Unprocessable Entity: "Can not approve your own pull request"',
    at: 1,
  });

  it('sends the item to needs-refinement with a comment saying why, what to do and what the reviewer said', () => {
    const commands = runHandlerAfterUpdate(handleReview, failed(), buildTestState({ workItems: [inReview] }));
    expect(commands).toEqual([
      { type: 'commentOnWorkItem', workItemID: 'wi-1', body: expect.any(String) },
      {
        type: 'transitionWorkItemStatus',
        workItemID: 'wi-1',
        newStatus: 'needs-refinement',
        cause: 'command-failed',
      },
    ]);
    const body = (commands[0] as { body: string }).body;
    expect(body).toContain('Can not approve your own pull request');
    expect(body).toContain('move the item back to review');
    expect(body).toContain('Looks good.');
  });

  it('leaves an item that already left review, and other failed commands, alone', () => {
    const moved = buildWorkItem({ id: 'wi-1', status: 'approved', linkedRevision: 'rev-1' });
    expect(runHandlerAfterUpdate(handleReview, failed(), buildTestState({ workItems: [moved] }))).toEqual([]);
    const other: EngineEvent = {
      type: 'commandFailed',
      command: { type: 'commentOnWorkItem', workItemID: 'wi-1', body: 'x' },
      error: 'boom',
      at: 1,
    };
    expect(runHandlerAfterUpdate(handleReview, other, buildTestState({ workItems: [inReview] }))).toEqual([]);
  });
});

describe('handleReview when the new revision arrives with its checks already red (fast CI)', () => {
  const red = buildRevision({ id: 'rev-1', workItemID: 'wi-1', pipeline: buildPipeline('failure') });
  const inProgress = buildWorkItem({ id: 'wi-1', status: 'in-progress' });

  it('the red revision seen while the item is in progress is counted; entering review sends it back for rework', () => {
    const seenRed = runHandlerAfterUpdate(
      handleReview,
      buildRevisionChanged(red, null),
      buildTestState({ workItems: [inProgress] }),
    );
    expect(seenRed).toEqual([]);
    const inReview = buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: 'rev-1' });
    const state = buildTestState({ workItems: [inProgress], revisions: [red], checkRounds: { 'wi-1': 1 } });
    expect(runHandlerAfterUpdate(handleReview, buildWorkItemChanged(inReview, 'in-progress'), state)).toEqual(
      [
        { type: 'commentOnWorkItem', workItemID: 'wi-1', body: expect.stringContaining('rework round 1 of') },
        {
          type: 'transitionWorkItemStatus',
          workItemID: 'wi-1',
          newStatus: 'pending',
          cause: 'checks-failed',
        },
      ],
    );
  });

  it('a human moving a red item back to review is left to the human (no automatic rework)', () => {
    const inReview = buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: 'rev-1' });
    const parked = buildWorkItem({ id: 'wi-1', status: 'needs-refinement', linkedRevision: 'rev-1' });
    const state = buildTestState({ workItems: [parked], revisions: [red], checkRounds: { 'wi-1': 4 } });
    expect(
      runHandlerAfterUpdate(handleReview, buildWorkItemChanged(inReview, 'needs-refinement'), state),
    ).toEqual([]);
  });
});
