import { describe, expect, it } from 'vitest';
import {
  buildSampleEventList,
  buildSampleState,
  runHandlerAfterUpdate,
} from '../../../test/support/engine/index.ts';
import {
  buildImplementorResult,
  buildRevision,
  buildRevisionFeedback,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import {
  type EngineEvent,
  type RevisionFeedback,
  WORK_ITEM_STATUSES,
  type WorkItemStatus,
} from '../../domain/index.ts';
import { applyStateUpdate } from '../state-store/apply-state-update.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { handleRevisionFeedback } from './handle-revision-feedback.ts';

const HEAD = 'head-rev-1';
const LINE: RevisionFeedback = buildRevisionFeedback({
  id: 'line-7',
  kind: 'line-comment',
  state: null,
  body: 'Trim here.',
  path: 'src/greet.js',
  line: 2,
  diffHunk: "@@ -0,0 +1,2 @@\n+export const greet = (n) =>\n+  'Hello, ' + n;",
});
const CHANGES = buildRevisionFeedback();
const APPROVAL = buildRevisionFeedback({ id: 'review-2', state: 'APPROVED', body: 'LGTM' });

function stateWith(status: WorkItemStatus): EngineState {
  return buildTestState({
    workItems: [buildWorkItem({ id: 'wi-1', status, linkedRevision: 'rev-1' })],
    revisions: [buildRevision({ id: 'rev-1', workItemID: 'wi-1', headSHA: HEAD })],
  });
}

function received(feedback: RevisionFeedback[]): EngineEvent {
  return { type: 'revisionFeedbackReceived', workItemID: 'wi-1', revisionID: 'rev-1', feedback, at: 1 };
}

/** Applies events one by one, as the loop does, returning the state after the last. */
function applyAll(state: EngineState, events: EngineEvent[]): EngineState {
  return events.reduce((current, event) => applyStateUpdate(current, event).state, state);
}

describe('handleRevisionFeedback', () => {
  it('a changes request sends the item back for rework from review and approved only', () => {
    const moved = WORK_ITEM_STATUSES.filter(
      (status) =>
        runHandlerAfterUpdate(handleRevisionFeedback, received([CHANGES, LINE]), stateWith(status)).length >
        0,
    );
    expect(moved).toEqual(['review', 'approved']);
    expect(
      runHandlerAfterUpdate(handleRevisionFeedback, received([CHANGES, LINE]), stateWith('review')),
    ).toEqual([
      {
        type: 'commentOnWorkItem',
        workItemID: 'wi-1',
        body: 'octocat asked for changes on revision #rev-1 (2 comments); an implementor reworks it with them and answers on each thread.',
      },
      { type: 'transitionWorkItemStatus', workItemID: 'wi-1', newStatus: 'pending', cause: 'human-review' },
    ]);
  });

  it('an approval of the current head approves from review, needs-refinement and blocked; of an older head, nothing', () => {
    const approvedFrom = WORK_ITEM_STATUSES.filter(
      (status) =>
        runHandlerAfterUpdate(handleRevisionFeedback, received([APPROVAL]), stateWith(status)).length > 0,
    );
    expect(approvedFrom).toEqual(['review', 'needs-refinement', 'blocked']);
    expect(runHandlerAfterUpdate(handleRevisionFeedback, received([APPROVAL]), stateWith('review'))).toEqual([
      { type: 'transitionWorkItemStatus', workItemID: 'wi-1', newStatus: 'approved', cause: 'human-review' },
    ]);
    const stale = { ...APPROVAL, commitSHA: 'an-older-head' };
    expect(runHandlerAfterUpdate(handleRevisionFeedback, received([stale]), stateWith('review'))).toEqual([]);
  });

  it('a changes request read together with an approval wins', () => {
    const commands = runHandlerAfterUpdate(
      handleRevisionFeedback,
      received([APPROVAL, CHANGES]),
      stateWith('review'),
    );
    expect(commands.at(-1)).toMatchObject({ newStatus: 'pending' });
  });

  it('feedback on a revision the item no longer links, or for an unknown item, is ignored', () => {
    const other = buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: 'rev-2' })],
      revisions: [
        buildRevision({ id: 'rev-1', workItemID: 'wi-1' }),
        buildRevision({ id: 'rev-2', workItemID: 'wi-1' }),
      ],
    });
    expect(runHandlerAfterUpdate(handleRevisionFeedback, received([CHANGES]), other)).toEqual([]);
    expect(runHandlerAfterUpdate(handleRevisionFeedback, received([CHANGES]), buildTestState())).toEqual([]);
  });

  it('the rework run gets the feedback; once its revision is in review, its answer goes to every thread', () => {
    let state = applyAll(stateWith('review'), [received([CHANGES, LINE])]);
    expect(state.seenFeedback).toEqual({ 'review-1': true, 'line-7': true });
    state = applyAll(state, [
      {
        type: 'implementorRequested',
        workItemID: 'wi-1',
        branchName: 'flotilla/wi-1',
        sessionID: 's-1',
        at: 2,
      },
    ]);
    expect(state.revisionFeedback['wi-1']?.map((entry) => entry.sessionID)).toEqual(['s-1', 's-1']);
    // A comment arriving while the implementor runs waits for the next round.
    const late = buildRevisionFeedback({
      id: 'comment-9',
      kind: 'comment',
      state: null,
      body: '@flotilla also a README',
    });
    state = applyAll(state, [
      received([late]),
      {
        type: 'implementorCompleted',
        workItemID: 'wi-1',
        branchName: 'flotilla/wi-1',
        sessionID: 's-1',
        logFilePath: null,
        usage: null,
        at: 3,
        result: buildImplementorResult({ summary: 'Trimmed the name.' }),
      },
    ]);
    const inReview = buildWorkItem({ id: 'wi-1', status: 'review', linkedRevision: 'rev-1' });
    const commands = runHandlerAfterUpdate(
      handleRevisionFeedback,
      {
        type: 'workItemChanged',
        workItemID: 'wi-1',
        workItem: inReview,
        oldStatus: 'in-progress',
        newStatus: 'review',
      },
      { ...state, workItems: { 'wi-1': { ...inReview, status: 'in-progress' } } },
    );
    expect(commands).toEqual([
      {
        type: 'replyToRevisionFeedback',
        workItemID: 'wi-1',
        revisionID: 'rev-1',
        feedback: [CHANGES, LINE],
        body: "Flotilla's implementor reworked revision #rev-1 (head `head-rev-1`) for this:\n\nTrimmed the name.\n\nChanged: `src/parser.ts`",
      },
      {
        type: 'commentOnWorkItem',
        workItemID: 'wi-1',
        body: 'octocat asked for changes on revision #rev-1 (one comment); an implementor reworks it with them and answers on each thread.',
      },
      { type: 'transitionWorkItemStatus', workItemID: 'wi-1', newStatus: 'pending', cause: 'human-review' },
    ]);
    // Answered: it leaves the state; the late comment stays for the next run.
    state = applyAll(state, [
      { type: 'revisionFeedbackAnswered', workItemID: 'wi-1', feedbackIDs: ['review-1', 'line-7'], at: 4 },
    ]);
    expect(state.revisionFeedback['wi-1']?.map((entry) => entry.feedback.id)).toEqual(['comment-9']);
  });

  it('feedback seen once is not taken again; a resumed run is not given it; closing the item drops it', () => {
    let state = applyAll(stateWith('in-progress'), [received([CHANGES])]);
    const again = applyStateUpdate(state, received([CHANGES])).state;
    expect(again.revisionFeedback).toBe(state.revisionFeedback);
    state = applyAll(state, [
      {
        type: 'implementorRequested',
        workItemID: 'wi-1',
        branchName: 'b',
        sessionID: 's-2',
        sessionNumber: 2,
        at: 2,
      },
    ]);
    expect(state.revisionFeedback['wi-1']?.[0]?.sessionID).toBeNull();
    const closed = buildWorkItem({ id: 'wi-1', status: 'closed' });
    state = applyAll(state, [
      {
        type: 'workItemChanged',
        workItemID: 'wi-1',
        workItem: closed,
        oldStatus: 'in-progress',
        newStatus: 'closed',
      },
    ]);
    expect(state.revisionFeedback).toEqual({});
  });

  it('reacts to no other sample event', () => {
    const state = buildSampleState();
    for (const event of buildSampleEventList()) {
      if (event.type === 'revisionFeedbackReceived') continue;
      expect(runHandlerAfterUpdate(handleRevisionFeedback, event, state), event.type).toEqual([]);
    }
  });
});
