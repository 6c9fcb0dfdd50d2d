import { describe, expect, it } from 'vitest';
import {
  buildSampleEventList,
  buildSampleEvents,
  buildSampleState,
  SAMPLE_IDS,
} from '../../../test/support/engine/index.ts';
import {
  buildImplementorRun,
  buildPipeline,
  buildPlannerResult,
  buildPlannerRun,
  buildReviewerResult,
  buildReviewerRun,
  buildRevision,
  buildRevisionChanged,
  buildSpec,
  buildSpecChanged,
  buildTestState,
  buildWorkItem,
  buildWorkItemChanged,
  buildWorkItemRemoved,
} from '../../../test/support/shared/builders/index.ts';
import { deepFreeze } from '../../../test/support/shared/deep-freeze.ts';
import type { AgentRun, AgentRunRequestCommand, EngineEvent, ImplementorFailed } from '../../domain/index.ts';
import { applyStateUpdate, type StateUpdate } from './apply-state-update.ts';
import {
  buildInitialEngineState,
  type EngineState,
  type FailureRecord,
  MAX_ERROR_ENTRIES,
  type QueuedDispatch,
} from './engine-state.ts';

/** Applies the event to a deep-frozen state, so any mutation of the input throws. */
function apply(state: EngineState, event: EngineEvent): StateUpdate {
  return applyStateUpdate(deepFreeze(state), deepFreeze(event));
}

const samples = buildSampleEvents;
const AT = 50_000;

/** Events whose effects arrive only as the result events of their commands; they record nothing. */
const RECORDS_NOTHING: ReadonlySet<EngineEvent['type']> = new Set([
  'userRequestedMerge',
  'accountSwitched',
  // The budget's parking arrives as the item's own transition, through the handler's commands.
  'workItemOverBudget',
  'questionsTimedOut',
  // The sample state has no feedback waiting for an answer (handle-revision-feedback.test.ts covers it).
  'revisionFeedbackAnswered',
  // The sample state has no open conversation (the conversation test below covers it).
  'conversationAnswered',
]);

describe('applyStateUpdate on every sample event', () => {
  it.each(buildSampleEventList().filter((event) => !RECORDS_NOTHING.has(event.type)))(
    '$type applies to the sample state without warnings and changes it',
    (event) => {
      const before = buildSampleState();
      const { state, warnings } = apply(before, event);
      expect(warnings).toEqual([]);
      expect(state).not.toBe(before);
      expect(state).not.toEqual(buildSampleState());
    },
  );

  it.each(buildSampleEventList().filter((event) => RECORDS_NOTHING.has(event.type)))(
    '$type applies to the sample state without warnings and returns the same state',
    (event) => {
      const before = buildSampleState();
      expect(apply(before, event)).toEqual({ state: before, warnings: [] });
      expect(apply(before, event).state).toBe(before);
    },
  );

  it.each(buildSampleEventList())('$type applies to an empty state without throwing', (event) => {
    const update = apply(buildInitialEngineState(), event);
    expect(Array.isArray(update.warnings)).toBe(true);
  });
});

describe('workItemChanged', () => {
  it('stores a new item', () => {
    const item = buildWorkItem({ id: 'wi-7', status: 'pending' });
    const { state } = apply(buildTestState(), buildWorkItemChanged(item));
    expect(state.workItems).toEqual({ 'wi-7': item });
  });

  it('replaces the stored snapshot as a whole and leaves other items alone', () => {
    const other = buildWorkItem({ id: 'wi-2' });
    const before = buildTestState({ workItems: [buildWorkItem({ id: 'wi-1', blockedBy: ['wi-2'] }), other] });
    const updated = buildWorkItem({ id: 'wi-1', status: 'ready', blockedBy: [] });
    const { state } = apply(before, buildWorkItemChanged(updated, 'pending'));
    expect(state.workItems['wi-1']).toEqual(updated);
    expect(state.workItems['wi-2']).toBe(other);
  });

  it.each([
    ['blocked', 'pending'],
    ['needs-refinement', 'ready'],
  ] as const)(
    'a human moving an item %s → %s gives it a fresh retry budget and review-round count',
    (from, to) => {
      const failure: FailureRecord = {
        attempts: 2,
        lastReason: 'error',
        lastError: 'x',
        lastFailedAt: 1,
        lastSessionID: 's',
      };
      const before = {
        ...buildTestState({ workItems: [buildWorkItem({ id: 'wi-1', status: from })] }),
        failures: { 'implementor:wi-1': failure, 'reviewer:wi-1': failure, 'implementor:wi-2': failure },
        reviewRounds: { 'wi-1': 3, 'wi-2': 1 },
        checkRounds: { 'wi-1': 3, 'wi-2': 1 },
      };
      const { state } = apply(before, buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status: to }), from));
      expect(Object.keys(state.failures)).toEqual(['implementor:wi-2']);
      expect(state.reviewRounds).toEqual({ 'wi-2': 1 });
      expect(state.checkRounds).toEqual({ 'wi-2': 1 });
    },
  );

  it('keeps the counters when the engine itself moves an item (e.g. in-progress → pending after a failure)', () => {
    const failure: FailureRecord = {
      attempts: 1,
      lastReason: 'error',
      lastError: 'x',
      lastFailedAt: 1,
      lastSessionID: 's',
    };
    const before = {
      ...buildTestState({ workItems: [buildWorkItem({ id: 'wi-1', status: 'in-progress' })] }),
      failures: { 'implementor:wi-1': failure },
    };
    const { state } = apply(
      before,
      buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status: 'pending' }), 'in-progress'),
    );
    expect(state.failures).toEqual({ 'implementor:wi-1': failure });
  });

  it('keeps closed items, so closed blockers still resolve', () => {
    const before = buildTestState({ workItems: [buildWorkItem({ id: 'wi-1', status: 'approved' })] });
    const closed = buildWorkItem({ id: 'wi-1', status: 'closed' });
    const { state } = apply(before, buildWorkItemChanged(closed, 'approved'));
    expect(state.workItems['wi-1']?.status).toBe('closed');
  });

  it('deletes the item when the snapshot is null', () => {
    const before = buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1' }), buildWorkItem({ id: 'wi-2' })],
    });
    const { state } = apply(before, buildWorkItemRemoved('wi-1', 'pending'));
    expect(Object.keys(state.workItems)).toEqual(['wi-2']);
  });

  it('returns the same state when deleting an unknown item', () => {
    const before = buildTestState({ workItems: [buildWorkItem({ id: 'wi-2' })] });
    expect(apply(before, buildWorkItemRemoved('wi-1')).state).toBe(before);
  });

  it('returns the same state when the snapshot equals the stored item', () => {
    const before = buildTestState({ workItems: [buildWorkItem({ id: 'wi-1', blockedBy: ['wi-0'] })] });
    const update = apply(
      before,
      buildWorkItemChanged(buildWorkItem({ id: 'wi-1', blockedBy: ['wi-0'] }), 'pending'),
    );
    expect(update).toEqual({ state: before, warnings: [] });
    expect(update.state).toBe(before);
  });

  it('refuses a snapshot whose id is not the event id', () => {
    const before = buildTestState();
    const event = { ...buildWorkItemChanged(buildWorkItem({ id: 'wi-9' })), workItemID: 'wi-1' };
    const { state, warnings } = apply(before, event);
    expect(state).toBe(before);
    expect(warnings).toEqual(['workItemChanged: snapshot id wi-9 does not match wi-1']);
  });
});

describe('revisionChanged', () => {
  it('stores a new revision', () => {
    const revision = buildRevision({ id: 'rev-1', pipeline: buildPipeline('pending') });
    const { state } = apply(buildTestState(), buildRevisionChanged(revision));
    expect(state.revisions).toEqual({ 'rev-1': revision });
  });

  it('replaces a known revision, pipeline included', () => {
    const before = buildTestState({
      revisions: [buildRevision({ id: 'rev-1', pipeline: buildPipeline('pending') })],
    });
    const failed = buildRevision({ id: 'rev-1', headSHA: 'new-head', pipeline: buildPipeline('failure') });
    const { state } = apply(before, buildRevisionChanged(failed, 'pending'));
    expect(state.revisions['rev-1']).toEqual(failed);
  });

  it('keeps the last known pipeline when the new one is unknown (null)', () => {
    const before = buildTestState({
      revisions: [buildRevision({ id: 'rev-1', pipeline: buildPipeline('success') })],
    });
    const unknown = buildRevision({ id: 'rev-1', title: 'Renamed', pipeline: null });
    const { state } = apply(before, buildRevisionChanged(unknown, 'success'));
    expect(state.revisions['rev-1']).toEqual({ ...unknown, pipeline: buildPipeline('success') });
  });

  it('stores a null pipeline for a revision it has never seen', () => {
    const fresh = buildRevision({ id: 'rev-1', pipeline: null });
    const { state } = apply(buildTestState(), buildRevisionChanged(fresh));
    expect(state.revisions['rev-1']?.pipeline).toBeNull();
  });

  it('returns the same state when a null pipeline is the only difference', () => {
    const before = buildTestState({ revisions: [buildRevision({ id: 'rev-1' })] });
    expect(apply(before, buildRevisionChanged(buildRevision({ id: 'rev-1', pipeline: null }))).state).toBe(
      before,
    );
  });

  it('deletes the revision when it was removed', () => {
    const before = buildTestState({
      revisions: [buildRevision({ id: 'rev-1' }), buildRevision({ id: 'rev-2' })],
    });
    const event: EngineEvent = {
      type: 'revisionChanged',
      revisionID: 'rev-1',
      workItemID: 'wi-1',
      revision: null,
      oldPipelineStatus: 'success',
      newPipelineStatus: null,
    };
    expect(Object.keys(apply(before, event).state.revisions)).toEqual(['rev-2']);
  });

  it('returns the same state when removing an unknown revision', () => {
    const before = buildTestState();
    const event: EngineEvent = {
      type: 'revisionChanged',
      revisionID: 'rev-1',
      workItemID: null,
      revision: null,
      oldPipelineStatus: null,
      newPipelineStatus: null,
    };
    expect(apply(before, event).state).toBe(before);
  });

  it('counts a check round when a linked revision turns red, or is first seen red', () => {
    const red = buildRevision({ id: 'rev-1', workItemID: 'wi-1', pipeline: buildPipeline('failure') });
    const pending = buildTestState({
      revisions: [{ ...red, pipeline: buildPipeline('pending') }],
      checkRounds: { 'wi-1': 1, 'wi-2': 4 },
    });
    expect(apply(pending, buildRevisionChanged(red, 'pending')).state.checkRounds).toEqual({
      'wi-1': 2,
      'wi-2': 4,
    });
    expect(apply(buildTestState(), buildRevisionChanged(red)).state.checkRounds).toEqual({ 'wi-1': 1 });
  });

  it('does not count a revision that stays red, one linked to no item, or other pipelines', () => {
    const red = buildRevision({ id: 'rev-1', workItemID: 'wi-1', pipeline: buildPipeline('failure') });
    const alreadyRed = buildTestState({ revisions: [red], checkRounds: { 'wi-1': 1 } });
    const edited = apply(alreadyRed, buildRevisionChanged({ ...red, title: 'Renamed' }, 'failure'));
    expect(edited.state.checkRounds).toEqual({ 'wi-1': 1 });
    const unlinked = buildRevision({ id: 'rev-2', workItemID: null, pipeline: buildPipeline('failure') });
    expect(apply(buildTestState(), buildRevisionChanged(unlinked)).state.checkRounds).toEqual({});
    for (const status of ['pending', 'success'] as const) {
      const revision = buildRevision({ id: 'rev-1', pipeline: buildPipeline(status) });
      expect(apply(buildTestState(), buildRevisionChanged(revision)).state.checkRounds).toEqual({});
    }
  });

  it('refuses a snapshot whose id is not the event id', () => {
    const before = buildTestState();
    const event = { ...buildRevisionChanged(buildRevision({ id: 'rev-9' })), revisionID: 'rev-1' };
    expect(apply(before, event)).toEqual({
      state: before,
      warnings: ['revisionChanged: snapshot id rev-9 does not match rev-1'],
    });
  });
});

describe('specChanged', () => {
  it('stores only path, blob SHA and status', () => {
    const { state } = apply(buildTestState(), buildSpecChanged(buildSpec({ blobSHA: 'sha-1' }), 'added'));
    expect(state.specs).toEqual({
      'docs/specs/alpha.md': {
        filePath: 'docs/specs/alpha.md',
        blobSHA: 'sha-1',
        frontmatterStatus: 'approved',
      },
    });
  });

  it('replaces a modified spec', () => {
    const before = buildTestState({ specs: [buildSpec({ blobSHA: 'sha-1', frontmatterStatus: 'draft' })] });
    const { state } = apply(
      before,
      buildSpecChanged(buildSpec({ blobSHA: 'sha-2', frontmatterStatus: 'approved' })),
    );
    expect(state.specs['docs/specs/alpha.md']).toEqual(
      buildSpec({ blobSHA: 'sha-2', frontmatterStatus: 'approved' }),
    );
  });

  it('deletes a removed spec but remembers what was planned', () => {
    const before = buildTestState({
      specs: [buildSpec(), buildSpec({ filePath: 'docs/specs/beta.md' })],
      lastPlannedSHAs: { 'docs/specs/alpha.md': 'sha-alpha-1' },
    });
    const { state } = apply(before, buildSpecChanged(buildSpec(), 'removed'));
    expect(Object.keys(state.specs)).toEqual(['docs/specs/beta.md']);
    expect(state.lastPlannedSHAs).toEqual({ 'docs/specs/alpha.md': 'sha-alpha-1' });
  });

  it('returns the same state for an unchanged spec or the removal of an unknown one', () => {
    const before = buildTestState({ specs: [buildSpec()] });
    expect(apply(before, buildSpecChanged(buildSpec())).state).toBe(before);
    expect(apply(before, buildSpecChanged(buildSpec({ filePath: 'docs/specs/x.md' }), 'removed')).state).toBe(
      before,
    );
  });
});

describe('*Requested', () => {
  const queuedEntry = (key: string, workItemID: string): QueuedDispatch => {
    const command: AgentRunRequestCommand =
      key === 'planner'
        ? { type: 'requestPlannerRun', specPaths: [], specSHAs: {} }
        : key.startsWith('implementor')
          ? { type: 'requestImplementorRun', workItemID }
          : { type: 'requestReviewerRun', workItemID, revisionID: 'rev-1' };
    return { key, command, reason: 'capacity', notBefore: null, priority: 2, queuedAt: 100 };
  };

  it('plannerRequested creates a requested planner run keeping the SHAs it was given', () => {
    const { state, warnings } = apply(buildTestState(), {
      type: 'plannerRequested',
      sessionID: 's-1',
      at: AT,
      specPaths: ['a.md', 'b.md'],
      specSHAs: { 'a.md': 'sha-a', 'b.md': 'sha-b' },
    });
    expect(warnings).toEqual([]);
    expect(state.agentRuns).toEqual({
      's-1': {
        role: 'planner',
        sessionID: 's-1',
        status: 'requested',
        logFilePath: null,
        error: null,
        requestedAt: AT,
        endedAt: null,
        usage: null,
        cancelRequestedBy: null,
        specPaths: ['a.md', 'b.md'],
        specSHAs: { 'a.md': 'sha-a', 'b.md': 'sha-b' },
        plannedBefore: {},
      },
    });
  });

  it('implementorRequested creates a requested implementor run', () => {
    const { state } = apply(buildTestState(), {
      type: 'implementorRequested',
      sessionID: 's-1',
      at: AT,
      workItemID: 'wi-1',
      branchName: 'flotilla/wi-1',
    });
    expect(state.agentRuns['s-1']).toEqual({
      role: 'implementor',
      sessionID: 's-1',
      status: 'requested',
      logFilePath: null,
      error: null,
      requestedAt: AT,
      endedAt: null,
      usage: null,
      cancelRequestedBy: null,
      workItemID: 'wi-1',
      branchName: 'flotilla/wi-1',
    });
  });

  it('reviewerRequested creates a requested reviewer run', () => {
    const { state } = apply(buildTestState(), {
      type: 'reviewerRequested',
      sessionID: 's-1',
      at: AT,
      workItemID: 'wi-1',
      revisionID: 'rev-1',
    });
    expect(state.agentRuns['s-1']).toEqual({
      role: 'reviewer',
      sessionID: 's-1',
      status: 'requested',
      logFilePath: null,
      error: null,
      requestedAt: AT,
      endedAt: null,
      usage: null,
      cancelRequestedBy: null,
      workItemID: 'wi-1',
      revisionID: 'rev-1',
    });
  });

  it('removes only the matching queue entry', () => {
    const before = buildTestState({
      dispatchQueue: [
        queuedEntry('planner', ''),
        queuedEntry('implementor:wi-1', 'wi-1'),
        queuedEntry('reviewer:wi-1', 'wi-1'),
        queuedEntry('implementor:wi-2', 'wi-2'),
      ],
    });
    const implementor = apply(before, {
      type: 'implementorRequested',
      sessionID: 's-1',
      at: AT,
      workItemID: 'wi-1',
      branchName: 'flotilla/wi-1',
    });
    expect(implementor.state.dispatchQueue.map((entry) => entry.key)).toEqual([
      'planner',
      'reviewer:wi-1',
      'implementor:wi-2',
    ]);
    const planner = apply(before, {
      type: 'plannerRequested',
      sessionID: 's-2',
      at: AT,
      specPaths: [],
      specSHAs: {},
    });
    expect(planner.state.dispatchQueue.map((entry) => entry.key)).toEqual([
      'implementor:wi-1',
      'reviewer:wi-1',
      'implementor:wi-2',
    ]);
    const reviewer = apply(before, {
      type: 'reviewerRequested',
      sessionID: 's-3',
      at: AT,
      workItemID: 'wi-1',
      revisionID: 'rev-1',
    });
    expect(reviewer.state.dispatchQueue.map((entry) => entry.key)).toEqual([
      'planner',
      'implementor:wi-1',
      'implementor:wi-2',
    ]);
  });

  it('refuses a session id that already exists', () => {
    const before = buildTestState({ agentRuns: [buildImplementorRun({ sessionID: 's-1' })] });
    const update = apply(before, {
      type: 'reviewerRequested',
      sessionID: 's-1',
      at: AT,
      workItemID: 'wi-1',
      revisionID: 'rev-1',
    });
    expect(update).toEqual({ state: before, warnings: ['reviewerRequested: session s-1 already exists'] });
    expect(update.state).toBe(before);
  });
});

describe('*Started', () => {
  const started = (type: 'plannerStarted' | 'implementorStarted' | 'reviewerStarted', sessionID: string) =>
    ({ type, sessionID, logFilePath: `/logs/${sessionID}.jsonl`, at: AT }) as const;

  it.each([
    ['plannerStarted', buildPlannerRun({ sessionID: 's-1', status: 'requested' })],
    ['implementorStarted', buildImplementorRun({ sessionID: 's-1', status: 'requested' })],
    ['reviewerStarted', buildReviewerRun({ sessionID: 's-1', status: 'requested' })],
  ] as const)('%s moves requested → running and sets the log path', (type, run) => {
    const { state, warnings } = apply(buildTestState({ agentRuns: [run] }), started(type, 's-1'));
    expect(warnings).toEqual([]);
    expect(state.agentRuns['s-1']).toEqual({ ...run, status: 'running', logFilePath: '/logs/s-1.jsonl' });
  });

  it('refuses a run that is already running', () => {
    const before = buildTestState({
      agentRuns: [buildImplementorRun({ sessionID: 's-1', status: 'running' })],
    });
    expect(apply(before, started('implementorStarted', 's-1'))).toEqual({
      state: before,
      warnings: ['implementorStarted: invalid run transition running → running for session s-1'],
    });
  });

  it('refuses an unknown session', () => {
    const before = buildTestState();
    expect(apply(before, started('plannerStarted', 'nope'))).toEqual({
      state: before,
      warnings: ['plannerStarted: unknown session nope'],
    });
  });

  it('refuses an event whose role is not the run role', () => {
    const before = buildTestState({
      agentRuns: [buildImplementorRun({ sessionID: 's-1', status: 'requested' })],
    });
    const update = apply(before, started('reviewerStarted', 's-1'));
    expect(update.state).toBe(before);
    expect(update.warnings).toEqual(['reviewerStarted: session s-1 is a implementor run']);
  });
});

/** A patch that modifies one file and adds another, as `git diff` writes it. */
const TWO_FILE_PATCH = [
  'diff --git a/src/a.ts b/src/a.ts',
  'index 1111111..2222222 100644',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -1 +1 @@',
  '-old',
  '+new',
  'diff --git a/src/new.ts b/src/new.ts',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/src/new.ts',
  '@@ -0,0 +1 @@',
  '+added',
  '',
].join('\n');

describe('*Completed', () => {
  const usage = { costUSD: 1.5, inputTokens: 10, outputTokens: 20, turns: 3 };
  const failure: FailureRecord = {
    attempts: 2,
    lastReason: 'error',
    lastError: 'boom',
    lastFailedAt: 1,
    lastSessionID: 'old',
  };

  it('implementorCompleted moves running → completed with log path, usage and end time', () => {
    const run = buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-1' });
    const { state, warnings } = apply(buildTestState({ agentRuns: [run] }), {
      type: 'implementorCompleted',
      sessionID: 's-1',
      logFilePath: '/logs/final.jsonl',
      usage,
      at: AT,
      workItemID: 'wi-1',
      branchName: 'flotilla/wi-1',
      result: { role: 'implementor', outcome: 'completed', summary: 'done', patch: TWO_FILE_PATCH },
    });
    expect(warnings).toEqual([]);
    expect(state.agentRuns['s-1']).toEqual({
      ...run,
      status: 'completed',
      logFilePath: '/logs/final.jsonl',
      usage,
      endedAt: AT,
      changedFiles: ['src/a.ts', 'src/new.ts'],
    });
  });

  it('keeps the scheduler estimate from the request beside the files the patch changed', () => {
    const requested = apply(buildTestState(), {
      type: 'implementorRequested',
      sessionID: 's-2',
      workItemID: 'wi-2',
      branchName: 'flotilla/wi-2',
      at: AT,
      estimatedFiles: ['src/a.ts', 'src/b.ts'],
    }).state;
    expect(requested.agentRuns['s-2']).toMatchObject({ estimatedFiles: ['src/a.ts', 'src/b.ts'] });
    const running = apply(requested, {
      type: 'implementorStarted',
      sessionID: 's-2',
      logFilePath: null,
      at: AT,
    }).state;
    const completed = apply(running, {
      type: 'implementorCompleted',
      sessionID: 's-2',
      logFilePath: null,
      usage: null,
      at: AT,
      workItemID: 'wi-2',
      branchName: 'flotilla/wi-2',
      result: { role: 'implementor', outcome: 'completed', summary: 'done', patch: TWO_FILE_PATCH },
    }).state;
    expect(completed.agentRuns['s-2']).toMatchObject({
      estimatedFiles: ['src/a.ts', 'src/b.ts'],
      changedFiles: ['src/a.ts', 'src/new.ts'],
    });
  });

  it('keeps the log path from the start when the end reports none', () => {
    const run = buildImplementorRun({ sessionID: 's-1', logFilePath: '/logs/started.jsonl' });
    const { state } = apply(buildTestState({ agentRuns: [run] }), {
      ...buildSampleEvents().implementorCompleted,
      sessionID: 's-1',
      logFilePath: null,
    });
    expect(state.agentRuns['s-1']?.logFilePath).toBe('/logs/started.jsonl');
  });

  it("clears only the role's failure entry for that item", () => {
    const before = buildTestState({
      agentRuns: [buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-1' })],
      failures: {
        'implementor:wi-1': failure,
        'reviewer:wi-1': failure,
        'implementor:wi-2': failure,
        planner: failure,
      },
    });
    const { state } = apply(before, {
      ...buildSampleEvents().implementorCompleted,
      sessionID: 's-1',
      workItemID: 'wi-1',
    });
    expect(Object.keys(state.failures)).toEqual(['reviewer:wi-1', 'implementor:wi-2', 'planner']);
  });

  it('plannerCompleted records the SHAs the planner was given, not the current ones, and clears its failures', () => {
    const before = buildTestState({
      // The spec was edited while the planner ran: the store has sha-new, the planner saw sha-given.
      specs: [
        buildSpec({ filePath: 'a.md', blobSHA: 'sha-new' }),
        buildSpec({ filePath: 'c.md', blobSHA: 'sha-c' }),
      ],
      lastPlannedSHAs: { 'a.md': 'sha-old', 'c.md': 'sha-c' },
      agentRuns: [
        buildPlannerRun({
          sessionID: 's-1',
          specPaths: ['a.md', 'b.md'],
          specSHAs: { 'a.md': 'sha-given', 'b.md': 'sha-b' },
        }),
      ],
      failures: { planner: failure, 'implementor:wi-1': failure },
    });
    const { state, warnings } = apply(before, {
      type: 'plannerCompleted',
      sessionID: 's-1',
      logFilePath: null,
      usage: null,
      at: AT,
      specPaths: ['a.md', 'b.md'],
      result: buildPlannerResult(),
    });
    expect(warnings).toEqual([]);
    expect(state.lastPlannedSHAs).toEqual({ 'a.md': 'sha-given', 'b.md': 'sha-b', 'c.md': 'sha-c' });
    expect(state.failures).toEqual({ 'implementor:wi-1': failure });
    expect(state.agentRuns['s-1']?.status).toBe('completed');
  });

  it('plannerCompleted skips a path the run has no SHA for', () => {
    const before = buildTestState({
      agentRuns: [
        buildPlannerRun({ sessionID: 's-1', specPaths: ['a.md', 'b.md'], specSHAs: { 'a.md': 'sha-a' } }),
      ],
    });
    const { state } = apply(before, { ...buildSampleEvents().plannerCompleted, sessionID: 's-1' });
    expect(state.lastPlannedSHAs).toEqual({ 'a.md': 'sha-a' });
  });

  it.each([
    [undefined, 1],
    [1, 2],
    [3, 4],
  ])('reviewerCompleted with needs-changes counts a review round (%s → %s)', (before, after) => {
    const state = buildTestState({
      agentRuns: [buildReviewerRun({ sessionID: 's-1', workItemID: 'wi-1' })],
      reviewRounds: before === undefined ? { 'wi-2': 5 } : { 'wi-1': before, 'wi-2': 5 },
      failures: { 'reviewer:wi-1': failure },
    });
    const next = apply(state, {
      ...buildSampleEvents().reviewerCompleted,
      sessionID: 's-1',
      workItemID: 'wi-1',
      result: buildReviewerResult('needs-changes'),
    }).state;
    expect(next.reviewRounds).toEqual({ 'wi-1': after, 'wi-2': 5 });
    expect(next.failures).toEqual({});
  });

  it('reviewerCompleted with approve forgets the review and check rounds', () => {
    const state = buildTestState({
      agentRuns: [buildReviewerRun({ sessionID: 's-1', workItemID: 'wi-1' })],
      reviewRounds: { 'wi-1': 2, 'wi-2': 5 },
      checkRounds: { 'wi-1': 1, 'wi-2': 2 },
    });
    const next = apply(state, {
      ...buildSampleEvents().reviewerCompleted,
      sessionID: 's-1',
      result: buildReviewerResult('approve'),
    }).state;
    expect(next.reviewRounds).toEqual({ 'wi-2': 5 });
    expect(next.checkRounds).toEqual({ 'wi-2': 2 });
  });

  it('refuses to complete a run that never started, and changes nothing else', () => {
    const before = buildTestState({
      agentRuns: [buildReviewerRun({ sessionID: 's-1', workItemID: 'wi-1', status: 'requested' })],
      reviewRounds: { 'wi-1': 1 },
      failures: { 'reviewer:wi-1': failure },
    });
    const update = apply(before, { ...buildSampleEvents().reviewerCompleted, sessionID: 's-1' });
    expect(update.state).toBe(before);
    expect(update.warnings).toEqual([
      'reviewerCompleted: invalid run transition requested → completed for session s-1',
    ]);
  });

  it('refuses to complete a run that already ended', () => {
    const before = buildTestState({
      agentRuns: [buildPlannerRun({ sessionID: 's-1', status: 'cancelled' })],
      lastPlannedSHAs: {},
    });
    const update = apply(before, { ...buildSampleEvents().plannerCompleted, sessionID: 's-1' });
    expect(update.state).toBe(before);
    expect(update.warnings).toEqual([
      'plannerCompleted: invalid run transition cancelled → completed for session s-1',
    ]);
  });

  it('refuses an unknown session', () => {
    const before = buildTestState();
    expect(apply(before, { ...buildSampleEvents().implementorCompleted, sessionID: 'ghost' })).toEqual({
      state: before,
      warnings: ['implementorCompleted: unknown session ghost'],
    });
  });
});

describe('*Failed', () => {
  const failed = (overrides: Partial<ImplementorFailed> = {}): ImplementorFailed => ({
    type: 'implementorFailed',
    sessionID: 's-1',
    logFilePath: '/logs/s-1-final.jsonl',
    usage: { costUSD: 0.5, inputTokens: null, outputTokens: null, turns: 1 },
    at: AT,
    reason: 'error',
    error: 'exit code 1',
    workItemID: 'wi-1',
    branchName: 'flotilla/wi-1',
    ...overrides,
  });

  it.each([
    ['error', 'failed'],
    ['timeout', 'timed-out'],
    ['cancelled', 'cancelled'],
    ['validation', 'failed'],
  ] as const)('reason %s ends a running run as %s with error, log, usage and end time', (reason, status) => {
    const run = buildImplementorRun({ sessionID: 's-1' });
    const { state, warnings } = apply(buildTestState({ agentRuns: [run] }), failed({ reason }));
    expect(warnings).toEqual([]);
    expect(state.agentRuns['s-1']).toEqual({
      ...run,
      status,
      failureReason: reason,
      error: 'exit code 1',
      logFilePath: '/logs/s-1-final.jsonl',
      usage: { costUSD: 0.5, inputTokens: null, outputTokens: null, turns: 1 },
      endedAt: AT,
    });
  });

  it('ends a run that never started (provisioning failure) as failed', () => {
    const run = buildImplementorRun({ sessionID: 's-1', status: 'requested' });
    const { state, warnings } = apply(
      buildTestState({ agentRuns: [run] }),
      failed({ logFilePath: null, usage: null, error: 'worktree setup failed' }),
    );
    expect(warnings).toEqual([]);
    expect(state.agentRuns['s-1']).toMatchObject({
      status: 'failed',
      error: 'worktree setup failed',
      logFilePath: null,
    });
    expect(state.failures['implementor:wi-1']?.attempts).toBe(1);
  });

  it('ends a requested run as cancelled', () => {
    const run = buildReviewerRun({ sessionID: 's-1', status: 'requested' });
    const { state } = apply(buildTestState({ agentRuns: [run] }), {
      ...buildSampleEvents().reviewerFailed,
      sessionID: 's-1',
      reason: 'cancelled',
    });
    expect(state.agentRuns['s-1']?.status).toBe('cancelled');
  });

  it('refuses a timeout for a run that never started (requested → timed-out is not a transition)', () => {
    const before = buildTestState({
      agentRuns: [buildImplementorRun({ sessionID: 's-1', status: 'requested' })],
    });
    expect(apply(before, failed({ reason: 'timeout' }))).toEqual({
      state: before,
      warnings: ['implementorFailed: invalid run transition requested → timed-out for session s-1'],
    });
  });

  it('refuses a failure for a run that already ended, without counting it', () => {
    const before = buildTestState({
      agentRuns: [buildImplementorRun({ sessionID: 's-1', status: 'completed' })],
    });
    const update = apply(before, failed());
    expect(update.state).toBe(before);
    expect(update.warnings).toEqual([
      'implementorFailed: invalid run transition completed → failed for session s-1',
    ]);
  });

  it('refuses an unknown session', () => {
    const before = buildTestState();
    expect(apply(before, failed()).warnings).toEqual(['implementorFailed: unknown session s-1']);
  });

  // `validation` counts as an attempt too (the implementation handler parks the item instead of retrying).
  it.each(['error', 'timeout', 'validation'] as const)('reason %s starts a failure record', (reason) => {
    const { state } = apply(
      buildTestState({ agentRuns: [buildImplementorRun({ sessionID: 's-1' })] }),
      failed({ reason }),
    );
    expect(state.failures).toEqual({
      'implementor:wi-1': {
        attempts: 1,
        lastReason: reason,
        lastError: 'exit code 1',
        lastFailedAt: AT,
        lastSessionID: 's-1',
      },
    });
  });

  it('a further failure increments the attempts and replaces the last failure', () => {
    const before = buildTestState({
      agentRuns: [buildImplementorRun({ sessionID: 's-1' })],
      failures: {
        'implementor:wi-1': {
          attempts: 2,
          lastReason: 'error',
          lastError: 'old',
          lastFailedAt: 1,
          lastSessionID: 's-0',
        },
      },
    });
    const { state } = apply(before, failed({ reason: 'timeout', error: 'stalled' }));
    expect(state.failures['implementor:wi-1']).toEqual({
      attempts: 3,
      lastReason: 'timeout',
      lastError: 'stalled',
      lastFailedAt: AT,
      lastSessionID: 's-1',
    });
  });

  it('a validation failure ends the run as failed, with the errors as its error', () => {
    const { state } = apply(
      buildTestState({ agentRuns: [buildImplementorRun({ sessionID: 's-1' })] }),
      failed({ reason: 'validation', error: 'validation failed: `npm test` exited 1' }),
    );
    expect(state.agentRuns['s-1']).toMatchObject({
      status: 'failed',
      error: 'validation failed: `npm test` exited 1',
    });
  });

  it('a cancel does not count as a failure', () => {
    const record: FailureRecord = {
      attempts: 1,
      lastReason: 'error',
      lastError: 'x',
      lastFailedAt: 1,
      lastSessionID: 's-0',
    };
    const before = buildTestState({
      agentRuns: [buildImplementorRun({ sessionID: 's-1' })],
      failures: { 'implementor:wi-1': record },
    });
    expect(apply(before, failed({ reason: 'cancelled' })).state.failures).toEqual({
      'implementor:wi-1': record,
    });
  });

  it('planner and reviewer failures are counted under their own keys', () => {
    const before = buildTestState({
      agentRuns: [
        buildPlannerRun({ sessionID: 'p-1' }),
        buildReviewerRun({ sessionID: 'r-1', workItemID: 'wi-4', revisionID: 'rev-4' }),
      ],
    });
    const afterPlanner = apply(before, { ...buildSampleEvents().plannerFailed, sessionID: 'p-1' }).state;
    expect(Object.keys(afterPlanner.failures)).toEqual(['planner']);
    const afterReviewer = apply(before, {
      ...buildSampleEvents().reviewerFailed,
      sessionID: 'r-1',
      reason: 'timeout',
    }).state;
    expect(Object.keys(afterReviewer.failures)).toEqual(['reviewer:wi-4']);
    expect(afterReviewer.failures['reviewer:wi-4']?.lastReason).toBe('timeout');
  });
});

describe('errors', () => {
  it('a duplicate rejection changes nothing', () => {
    const before = buildTestState();
    const event: EngineEvent = {
      type: 'commandRejected',
      command: { type: 'requestPlannerRun', specPaths: [], specSHAs: {} },
      reason: 'planner already running',
      kind: 'duplicate',
      at: AT,
    };
    expect(apply(before, event)).toEqual({ state: before, warnings: [] });
    expect(apply(before, event).state).toBe(before);
  });

  it.each(['policy', 'invalid'] as const)('a %s rejection is recorded', (kind) => {
    const event: EngineEvent = {
      type: 'commandRejected',
      command: { type: 'requestImplementorRun', workItemID: 'wi-1' },
      reason: 'not allowed now',
      kind,
      at: AT,
    };
    expect(apply(buildTestState(), event).state.errors).toEqual([
      {
        at: AT,
        source: 'command-executor',
        message: `requestImplementorRun rejected (${kind}): not allowed now`,
        event,
      },
    ]);
  });

  it('a failed command is recorded', () => {
    const event: EngineEvent = {
      type: 'commandFailed',
      command: { type: 'commentOnWorkItem', workItemID: 'wi-1', body: 'x' },
      error: 'HTTP 502',
      at: AT,
    };
    expect(apply(buildTestState(), event).state.errors).toEqual([
      { at: AT, source: 'command-executor', message: 'commentOnWorkItem failed: HTTP 502', event },
    ]);
  });

  it('a recorded error keeps its source and message, after the existing ones', () => {
    const existing = { at: 1, source: 'x', message: 'earlier', event: null };
    const event: EngineEvent = {
      type: 'errorRecorded',
      source: 'spec-poller',
      message: 'bad frontmatter',
      at: AT,
    };
    expect(apply(buildTestState({ errors: [existing] }), event).state.errors).toEqual([
      existing,
      { at: AT, source: 'spec-poller', message: 'bad frontmatter', event },
    ]);
  });

  it(`keeps only the newest ${MAX_ERROR_ENTRIES} entries`, () => {
    const errors = Array.from({ length: MAX_ERROR_ENTRIES }, (_, i) => ({
      at: i,
      source: 'test',
      message: `error ${i}`,
      event: null,
    }));
    const event: EngineEvent = { type: 'errorRecorded', source: 'test', message: 'newest', at: AT };
    const next = apply(buildTestState({ errors }), event).state.errors;
    expect(next).toHaveLength(MAX_ERROR_ENTRIES);
    expect(next[0]?.message).toBe('error 1');
    expect(next.at(-1)?.message).toBe('newest');
  });

  it('below the cap nothing is dropped', () => {
    const errors = Array.from({ length: MAX_ERROR_ENTRIES - 1 }, (_, i) => ({
      at: i,
      source: 'test',
      message: `error ${i}`,
      event: null,
    }));
    const event: EngineEvent = { type: 'errorRecorded', source: 'test', message: 'newest', at: AT };
    const next = apply(buildTestState({ errors }), event).state.errors;
    expect(next).toHaveLength(MAX_ERROR_ENTRIES);
    expect(next[0]?.message).toBe('error 0');
  });
});

describe('dispatch queue', () => {
  const implementorRequest = { type: 'requestImplementorRun', workItemID: 'wi-1' } as const;
  const reviewerRequest = { type: 'requestReviewerRun', workItemID: 'wi-1', revisionID: 'rev-1' } as const;

  it('dispatchQueued adds an entry keyed by role and work item', () => {
    const { state } = apply(buildTestState(), {
      type: 'dispatchQueued',
      command: implementorRequest,
      reason: 'backoff',
      notBefore: AT + 30_000,
      priority: 3,
      at: AT,
    });
    expect(state.dispatchQueue).toEqual([
      {
        key: 'implementor:wi-1',
        command: implementorRequest,
        reason: 'backoff',
        notBefore: AT + 30_000,
        priority: 3,
        queuedAt: AT,
      },
    ]);
  });

  it('keeps entries with different keys apart (planner, implementor and reviewer of one item)', () => {
    let state = buildTestState();
    const commands: AgentRunRequestCommand[] = [
      implementorRequest,
      reviewerRequest,
      { type: 'requestPlannerRun', specPaths: ['a.md'], specSHAs: { 'a.md': 's' } },
    ];
    for (const command of commands) {
      state = apply(state, {
        type: 'dispatchQueued',
        command,
        reason: 'capacity',
        notBefore: null,
        priority: 2,
        at: AT,
      }).state;
    }
    expect(state.dispatchQueue.map((entry) => entry.key)).toEqual([
      'implementor:wi-1',
      'reviewer:wi-1',
      'planner',
    ]);
  });

  it('dispatchQueued for a queued key updates the entry in place and keeps its age', () => {
    const before = buildTestState({
      dispatchQueue: [
        {
          key: 'implementor:wi-1',
          command: implementorRequest,
          reason: 'capacity',
          notBefore: null,
          priority: 2,
          queuedAt: 5,
        },
        {
          key: 'reviewer:wi-1',
          command: reviewerRequest,
          reason: 'capacity',
          notBefore: null,
          priority: 2,
          queuedAt: 6,
        },
      ],
    });
    const { state } = apply(before, {
      type: 'dispatchQueued',
      command: implementorRequest,
      reason: 'backoff',
      notBefore: AT + 1,
      priority: 1,
      at: AT,
    });
    expect(state.dispatchQueue).toEqual([
      {
        key: 'implementor:wi-1',
        command: implementorRequest,
        reason: 'backoff',
        notBefore: AT + 1,
        priority: 1,
        queuedAt: 5,
      },
      before.dispatchQueue[1],
    ]);
  });

  it('dispatchQueued identical to the queued entry returns the same state', () => {
    const before = buildTestState({
      dispatchQueue: [
        {
          key: 'implementor:wi-1',
          command: implementorRequest,
          reason: 'capacity',
          notBefore: null,
          priority: 2,
          queuedAt: 5,
        },
      ],
    });
    const event: EngineEvent = {
      type: 'dispatchQueued',
      command: implementorRequest,
      reason: 'capacity',
      notBefore: null,
      priority: 2,
      at: AT,
    };
    expect(apply(before, event).state).toBe(before);
  });

  it('dispatchDropped removes the entry with the same key', () => {
    const before = buildTestState({
      dispatchQueue: [
        {
          key: 'implementor:wi-1',
          command: implementorRequest,
          reason: 'capacity',
          notBefore: null,
          priority: 2,
          queuedAt: 5,
        },
        {
          key: 'reviewer:wi-1',
          command: reviewerRequest,
          reason: 'capacity',
          notBefore: null,
          priority: 2,
          queuedAt: 6,
        },
      ],
    });
    const { state } = apply(before, {
      type: 'dispatchDropped',
      command: reviewerRequest,
      reason: 'moved on',
      at: AT,
    });
    expect(state.dispatchQueue.map((entry) => entry.key)).toEqual(['implementor:wi-1']);
  });

  it('dispatchDropped for a key not queued returns the same state', () => {
    const before = buildTestState();
    expect(
      apply(before, { type: 'dispatchDropped', command: reviewerRequest, reason: 'x', at: AT }).state,
    ).toBe(before);
  });
});

describe('user actions', () => {
  const record: FailureRecord = {
    attempts: 3,
    lastReason: 'error',
    lastError: 'x',
    lastFailedAt: 1,
    lastSessionID: 's-0',
  };

  it.each(['requested', 'running'] as const)(
    'userCancelledRun marks a %s run as cancelled by the user',
    (status) => {
      const run = buildImplementorRun({ sessionID: 's-1', status });
      const { state, warnings } = apply(buildTestState({ agentRuns: [run] }), {
        type: 'userCancelledRun',
        sessionID: 's-1',
      });
      expect(warnings).toEqual([]);
      expect(state.agentRuns['s-1']).toEqual({ ...run, cancelRequestedBy: 'user' });
    },
  );

  it('userCancelledRun on a run already cancelled by the user returns the same state', () => {
    const before = buildTestState({
      agentRuns: [buildPlannerRun({ sessionID: 's-1', cancelRequestedBy: 'user' })],
    });
    const update = apply(before, { type: 'userCancelledRun', sessionID: 's-1' });
    expect(update.state).toBe(before);
    expect(update.warnings).toEqual([]);
  });

  it('userCancelledRun on a run that already ended changes nothing and warns', () => {
    const before = buildTestState({
      agentRuns: [buildReviewerRun({ sessionID: 's-1', status: 'completed' })],
    });
    const update = apply(before, { type: 'userCancelledRun', sessionID: 's-1' });
    expect(update.state).toBe(before);
    expect(update.warnings).toEqual(['userCancelledRun: session s-1 is already completed']);
  });

  it('userCancelledRun on an unknown session changes nothing and warns', () => {
    const before = buildTestState();
    expect(apply(before, { type: 'userCancelledRun', sessionID: 'ghost' })).toEqual({
      state: before,
      warnings: ['userCancelledRun: unknown session ghost'],
    });
  });

  it("userRequestedImplementorRun clears only the item's implementor failures", () => {
    const before = buildTestState({
      failures: { 'implementor:wi-1': record, 'reviewer:wi-1': record, 'implementor:wi-2': record },
    });
    const { state } = apply(before, { type: 'userRequestedImplementorRun', workItemID: 'wi-1' });
    expect(Object.keys(state.failures)).toEqual(['reviewer:wi-1', 'implementor:wi-2']);
  });

  it("userRequestedReviewerRun clears only the item's reviewer failures", () => {
    const before = buildTestState({
      failures: { 'implementor:wi-1': record, 'reviewer:wi-1': record, 'reviewer:wi-2': record },
    });
    const { state } = apply(before, { type: 'userRequestedReviewerRun', workItemID: 'wi-1' });
    expect(Object.keys(state.failures)).toEqual(['implementor:wi-1', 'reviewer:wi-2']);
  });

  it("userRequestedPlannerRun clears only the planner's failures", () => {
    const before = buildTestState({ failures: { planner: record, 'implementor:wi-1': record } });
    const { state } = apply(before, { type: 'userRequestedPlannerRun' });
    expect(Object.keys(state.failures)).toEqual(['implementor:wi-1']);
  });

  it('user requests with no failure to clear return the same state', () => {
    const before = buildTestState({ failures: { 'implementor:wi-2': record } });
    expect(apply(before, { type: 'userRequestedImplementorRun', workItemID: 'wi-1' }).state).toBe(before);
    expect(apply(before, { type: 'userRequestedReviewerRun', workItemID: 'wi-1' }).state).toBe(before);
    expect(apply(before, { type: 'userRequestedPlannerRun' }).state).toBe(before);
  });

  it("userTransitionedStatus clears the item's failures, review and check rounds, nothing else", () => {
    const before = buildTestState({
      failures: {
        'implementor:wi-1': record,
        'reviewer:wi-1': record,
        'implementor:wi-2': record,
        planner: record,
      },
      reviewRounds: { 'wi-1': 4, 'wi-2': 1 },
      checkRounds: { 'wi-1': 3, 'wi-2': 2 },
    });
    const { state } = apply(before, {
      type: 'userTransitionedStatus',
      workItemID: 'wi-1',
      newStatus: 'pending',
    });
    expect(Object.keys(state.failures)).toEqual(['implementor:wi-2', 'planner']);
    expect(state.reviewRounds).toEqual({ 'wi-2': 1 });
    expect(state.checkRounds).toEqual({ 'wi-2': 2 });
  });

  it('userTransitionedStatus with nothing to clear returns the same state', () => {
    const before = buildTestState({ reviewRounds: { 'wi-2': 1 } });
    expect(
      apply(before, { type: 'userTransitionedStatus', workItemID: 'wi-1', newStatus: 'pending' }).state,
    ).toBe(before);
  });
});

describe('the sample world', () => {
  it('applies the sample lifecycle events to the runs they name', () => {
    const S = SAMPLE_IDS.sessions;
    const runStatus = (event: EngineEvent, sessionID: string): AgentRun['status'] | undefined =>
      apply(buildSampleState(), event).state.agentRuns[sessionID]?.status;
    const e = samples();
    expect(runStatus(e.plannerRequested, S.newPlanner)).toBe('requested');
    expect(runStatus(e.plannerStarted, S.requestedPlanner)).toBe('running');
    expect(runStatus(e.plannerCompleted, S.runningPlanner)).toBe('completed');
    expect(runStatus(e.implementorFailed, S.runningImplementor)).toBe('failed');
    expect(runStatus(e.reviewerStarted, S.requestedReviewer)).toBe('running');
  });
});

describe('applyStateUpdate: provider limits', () => {
  const running = (account?: string) =>
    buildImplementorRun({
      sessionID: 's1',
      workItemID: '1',
      status: 'running',
      runtime: 'claude',
      ...(account !== undefined && { account }),
    });
  const limited = (reason: ImplementorFailed['reason'], resetsAt: number | null): ImplementorFailed => ({
    type: 'implementorFailed',
    sessionID: 's1',
    workItemID: '1',
    branchName: 'flotilla/1',
    reason,
    error: 'API Error: limited',
    resetsAt,
    logFilePath: null,
    usage: null,
    at: AT,
  });

  it('a usage limit parks the run’s account until the reset and counts no failed attempt', () => {
    const { state } = apply(
      buildTestState({ agentRuns: [running('work')] }),
      limited('usage-limit', AT + 9_000),
    );
    expect(state.failures).toEqual({});
    expect(state.agentRuns.s1).toMatchObject({
      status: 'failed',
      failureReason: 'usage-limit',
      account: 'work',
    });
    expect(state.parkings).toEqual({
      'claude/account:work': expect.objectContaining({ account: 'work', until: AT + 9_000, hits: 1 }),
    });
  });

  it('an overload parks the runtime for a growing backoff; a completed run lifts it', () => {
    const first = apply(buildTestState({ agentRuns: [running('work')] }), limited('overloaded', null)).state;
    expect(first.parkings.claude).toMatchObject({ account: null, until: AT + 60_000, hits: 1 });
    const again = apply(
      { ...first, agentRuns: { ...first.agentRuns, s1: running('work') } },
      limited('overloaded', null),
    ).state;
    expect(again.parkings.claude).toMatchObject({ until: AT + 120_000, hits: 2 });
    const done = apply({ ...again, agentRuns: { ...again.agentRuns, s1: running('work') } }, {
      type: 'implementorCompleted',
      sessionID: 's1',
      workItemID: '1',
      branchName: 'flotilla/1',
      result: { role: 'implementor', outcome: 'completed', summary: 'done', patch: '' },
      logFilePath: null,
      usage: null,
      at: AT + 200_000,
    } as EngineEvent).state;
    expect(done.parkings).toEqual({});
  });
});

describe('applyStateUpdate: conversations between agents', () => {
  it('shows an open conversation on both runs, and clears it when it ends', () => {
    const created = samples().conversationCreated;
    const { state } = apply(buildSampleState(), created);
    const { runningImplementor, runningReviewer } = SAMPLE_IDS.sessions;
    expect(state.agentRuns[runningImplementor]?.conversation).toEqual({
      id: 'conv-1',
      line: `asks the reviewer of #${SAMPLE_IDS.reviewingItem}: Which module owns the greeting?`,
    });
    expect(state.agentRuns[runningReviewer]?.conversation?.line).toMatch(/^asked by the implementor of #/);
    const ended = apply(state, samples().conversationAnswered).state;
    expect(ended.agentRuns[runningImplementor]?.conversation).toBeUndefined();
    expect(ended.agentRuns[runningReviewer]?.conversation).toBeUndefined();
  });
});
