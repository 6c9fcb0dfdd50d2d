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
  buildImplementorResult,
  buildImplementorRun,
  buildTestState,
  buildWorkItem,
  buildWorkItemChanged,
} from '../../../test/support/shared/builders/index.ts';
import {
  type EngineCommand,
  type EngineEventType,
  type ImplementorFailed,
  type ModeReport,
  WORK_ITEM_STATUSES,
} from '../../domain/index.ts';
import type { FailureRecord } from '../state-store/engine-state.ts';
import { handleImplementation } from './handle-implementation.ts';

describe('handleImplementation on every sample event', () => {
  const samples = buildSampleEvents();
  const expected: Partial<Record<EngineEventType, EngineCommand[]>> = {
    implementorRequested: [
      {
        type: 'transitionWorkItemStatus',
        workItemID: SAMPLE_IDS.readyItem,
        newStatus: 'in-progress',
        cause: 'implementor-accepted',
      },
    ],
    implementorCompleted: [
      {
        type: 'applyImplementorResult',
        workItemID: SAMPLE_IDS.implementingItem,
        branchName: `flotilla/${SAMPLE_IDS.implementingItem}`,
        result: samples.implementorCompleted.result,
      },
    ],
    // First failure (error): back to pending for a backed-off retry.
    implementorFailed: [
      {
        type: 'transitionWorkItemStatus',
        workItemID: SAMPLE_IDS.implementingItem,
        newStatus: 'pending',
        cause: 'implementor-failed',
      },
    ],
  };

  it.each(buildSampleEventList())('$type', (event) => {
    expect(runHandlerAfterUpdate(handleImplementation, event, buildSampleState())).toEqual(
      expected[event.type] ?? [],
    );
  });
});

describe('handleImplementation on workItemChanged', () => {
  it.each([null, 'pending', 'blocked', 'needs-refinement'] as const)(
    'requests an implementor for a task now ready (old status %s)',
    (oldStatus) => {
      const event = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status: 'ready' }), oldStatus);
      expect(runHandlerAfterUpdate(handleImplementation, event, buildTestState())).toEqual([
        { type: 'requestImplementorRun', workItemID: 'wi-1' },
      ]);
    },
  );

  it('never requests an implementor for a refinement item', () => {
    const event = buildWorkItemChanged(
      buildWorkItem({ id: 'wi-1', status: 'ready', kind: 'refinement' }),
      'pending',
    );
    expect(runHandlerAfterUpdate(handleImplementation, event, buildTestState())).toEqual([]);
  });

  it.each(WORK_ITEM_STATUSES.filter((status) => status !== 'ready'))('ignores an item now %s', (status) => {
    const event = buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status }), 'ready');
    expect(runHandlerAfterUpdate(handleImplementation, event, buildTestState())).toEqual([]);
  });
});

describe('handleImplementation on implementorRequested and implementorCompleted', () => {
  it('moves the item in-progress once the run is accepted', () => {
    const before = buildTestState({ workItems: [buildWorkItem({ id: 'wi-5', status: 'ready' })] });
    const event = {
      ...buildSampleEvents().implementorRequested,
      workItemID: 'wi-5',
      branchName: 'flotilla/wi-5',
    };
    expect(runHandlerAfterUpdate(handleImplementation, event, before)).toEqual([
      {
        type: 'transitionWorkItemStatus',
        workItemID: 'wi-5',
        newStatus: 'in-progress',
        cause: 'implementor-accepted',
      },
    ]);
  });

  it.each(['completed', 'blocked', 'validation-failure'] as const)(
    'hands a %s result to the executor',
    (outcome) => {
      const result = buildImplementorResult({ outcome });
      const before = buildTestState({
        agentRuns: [buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-5' })],
      });
      const event = {
        ...buildSampleEvents().implementorCompleted,
        sessionID: 's-1',
        workItemID: 'wi-5',
        branchName: 'flotilla/wi-5',
        result,
      };
      expect(runHandlerAfterUpdate(handleImplementation, event, before)).toEqual([
        { type: 'applyImplementorResult', workItemID: 'wi-5', branchName: 'flotilla/wi-5', result },
      ]);
    },
  );
});

describe('handleImplementation on implementorFailed', () => {
  const failed = (overrides: Partial<ImplementorFailed> = {}): ImplementorFailed => ({
    type: 'implementorFailed',
    sessionID: 's-1',
    logFilePath: '/logs/s-1.jsonl',
    usage: null,
    at: 5_000,
    reason: 'error',
    error: 'tests failed to compile',
    workItemID: 'wi-1',
    branchName: 'flotilla/wi-1',
    ...overrides,
  });
  const record = (attempts: number): FailureRecord => ({
    attempts,
    lastReason: 'error',
    lastError: 'earlier failure',
    lastFailedAt: 1,
    lastSessionID: 's-0',
  });
  const stateWith = (
    previousAttempts: number,
    run = buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-1' }),
  ) =>
    buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', status: 'in-progress' })],
      agentRuns: [run],
      failures: previousAttempts === 0 ? {} : { 'implementor:wi-1': record(previousAttempts) },
    });
  const toPending = {
    type: 'transitionWorkItemStatus',
    workItemID: 'wi-1',
    newStatus: 'pending',
    cause: 'implementor-failed',
  };

  it.each([
    ['error', 0],
    ['error', 1],
    ['timeout', 0],
    ['timeout', 1],
  ] as const)(
    'sends the item back to pending after a %s below the cap (%i earlier failures)',
    (reason, previous) => {
      expect(runHandlerAfterUpdate(handleImplementation, failed({ reason }), stateWith(previous))).toEqual([
        toPending,
      ]);
    },
  );

  it.each(['error', 'timeout'] as const)(
    'blocks the item with a comment when a %s exhausts the attempts',
    (reason) => {
      const commands = runHandlerAfterUpdate(handleImplementation, failed({ reason }), stateWith(2));
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
      expect(body).toContain('implementor failed 3 times in a row (limit 3)');
      expect(body).toContain(`Last failure: ${reason === 'timeout' ? 'timed out' : 'error'}`);
      expect(body).toContain('Error: tests failed to compile');
      expect(body).toContain('Session: s-1');
      expect(body).toContain('Log: /logs/s-1.jsonl');
    },
  );

  it('follows the configured attempt cap', () => {
    const config = buildHandlerConfig({ maxAttempts: 1 });
    const commands = runHandlerAfterUpdate(handleImplementation, failed(), stateWith(0), config);
    expect(commands.map((command) => command.type)).toEqual([
      'transitionWorkItemStatus',
      'commentOnWorkItem',
    ]);
    expect(commands[0]).toMatchObject({ newStatus: 'blocked', cause: 'retries-exhausted' });
    expect((commands[1] as { body: string }).body).toContain('failed 1 time in a row (limit 1)');
  });

  it('blocks the item at the first credentials failure, with the error saying what to set', () => {
    const error = 'credentials: the implementor could not authenticate … Set ANTHROPIC_API_KEY …';
    const commands = runHandlerAfterUpdate(handleImplementation, failed({ error }), stateWith(0));
    expect(commands[0]).toMatchObject({ newStatus: 'blocked', cause: 'retries-exhausted' });
    expect((commands[1] as { body: string }).body).toContain(`Error: ${error}`);
  });

  it('blocks the item at once when the scenario has no answer, saying a retry would repeat it', () => {
    const error =
      'the implementor session ended with an error: API Error: 400 [flotilla model-server] no route matches this request';
    const commands = runHandlerAfterUpdate(handleImplementation, failed({ error }), stateWith(0));
    expect(commands[0]).toMatchObject({ newStatus: 'blocked', cause: 'retries-exhausted' });
    const body = (commands[1] as { body: string }).body;
    expect(body).toContain('every retry would repeat');
    expect(body).toContain(`Error: ${error}`);
  });

  it('retries an ordinary error while attempts are left', () => {
    const commands = runHandlerAfterUpdate(
      handleImplementation,
      failed({ error: 'the implementor session ended with an error: API Error: 500 boom' }),
      stateWith(0),
    );
    expect(commands).toEqual([toPending]);
  });

  it('blocks the item with a comment when the user cancelled the run', () => {
    const run = buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-1', cancelRequestedBy: 'user' });
    const commands = runHandlerAfterUpdate(
      handleImplementation,
      failed({ reason: 'cancelled' }),
      stateWith(2, run),
    );
    expect(commands).toEqual([
      { type: 'transitionWorkItemStatus', workItemID: 'wi-1', newStatus: 'blocked', cause: 'run-cancelled' },
      { type: 'commentOnWorkItem', workItemID: 'wi-1', body: expect.stringContaining('cancelled by a user') },
    ]);
    expect((commands[1] as { body: string }).body).toContain('session s-1');
  });

  it.each([null, 'shutdown'] as const)(
    'sends the item back to pending when the run was cancelled by %s (not the user), whatever the attempts',
    (cancelRequestedBy) => {
      const run = buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-1', cancelRequestedBy });
      expect(
        runHandlerAfterUpdate(handleImplementation, failed({ reason: 'cancelled' }), stateWith(5, run)),
      ).toEqual([toPending]);
    },
  );
  it.each([0, 1, 2])(
    'moves the item to needs-refinement with the last errors when validation still fails (%i earlier failures), never back to pending or blocked',
    (previous) => {
      const error =
        'validation failed after 3 fix rounds\n`npm test` failed (exit code 1):\nFAIL greet.test.ts';
      const commands = runHandlerAfterUpdate(
        handleImplementation,
        failed({ reason: 'validation', error }),
        stateWith(previous),
      );
      expect(commands).toEqual([
        {
          type: 'transitionWorkItemStatus',
          workItemID: 'wi-1',
          newStatus: 'needs-refinement',
          cause: 'validation-failed',
        },
        { type: 'commentOnWorkItem', workItemID: 'wi-1', body: expect.any(String) },
      ]);
      const body = (commands[1] as { body: string }).body;
      expect(body).toContain('needs refinement and will not be retried automatically');
      expect(body).toContain(`\n${error}\n`);
      expect(body).toContain('Session: s-1');
      expect(body).toContain('Log: /logs/s-1.jsonl');
    },
  );
});

describe('handleImplementation when a human takes the item while its implementor runs', () => {
  const running = buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-1' });
  const movedTo = (status: (typeof WORK_ITEM_STATUSES)[number]) =>
    buildWorkItemChanged(buildWorkItem({ id: 'wi-1', status }), 'in-progress');
  const withRun = (...agentRuns: ReturnType<typeof buildImplementorRun>[]) =>
    buildTestState({ workItems: [buildWorkItem({ id: 'wi-1', status: 'in-progress' })], agentRuns });

  it.each(['closed', 'approved', 'blocked', 'needs-refinement'] as const)(
    'cancels the run when the item is moved to %s',
    (status) => {
      expect(runHandlerAfterUpdate(handleImplementation, movedTo(status), withRun(running))).toEqual([
        { type: 'cancelImplementorRun', workItemID: 'wi-1' },
      ]);
    },
  );

  it.each(['pending', 'review', 'waiting-for-input'] as const)(
    'leaves the run alone when the item goes to %s (the engine moves items there itself)',
    (status) => {
      expect(runHandlerAfterUpdate(handleImplementation, movedTo(status), withRun(running))).toEqual([]);
    },
  );

  it('cancels nothing when no implementor runs on the item', () => {
    expect(runHandlerAfterUpdate(handleImplementation, movedTo('closed'), withRun())).toEqual([]);
  });

  it('does not apply a result that arrives after the item was closed, but keeps its summary in a comment', () => {
    const result = buildImplementorResult({ outcome: 'completed', summary: 'Added the store.' });
    const before = buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', status: 'closed' })],
      agentRuns: [running],
    });
    const event = {
      ...buildSampleEvents().implementorCompleted,
      sessionID: 's-1',
      workItemID: 'wi-1',
      branchName: 'flotilla/wi-1',
      result,
    };
    const commands = runHandlerAfterUpdate(handleImplementation, event, before);
    expect(commands).toEqual([{ type: 'commentOnWorkItem', workItemID: 'wi-1', body: expect.any(String) }]);
    const body = (commands[0] as { body: string }).body;
    expect(body).toContain(
      'finished after this item was moved to closed; its completed result was not applied',
    );
    expect(body).toContain('Added the store.');
  });

  it.each(['cancelled', 'error'] as const)(
    'leaves a blocked item where the human put it when the run then fails (%s)',
    (reason) => {
      const before = buildTestState({
        workItems: [buildWorkItem({ id: 'wi-1', status: 'blocked' })],
        agentRuns: [running],
      });
      const event: ImplementorFailed = {
        type: 'implementorFailed',
        sessionID: 's-1',
        logFilePath: null,
        usage: null,
        at: 5_000,
        reason,
        error: 'cancelled',
        workItemID: 'wi-1',
        branchName: 'flotilla/wi-1',
      };
      expect(runHandlerAfterUpdate(handleImplementation, event, before)).toEqual([]);
    },
  );
});

describe('handleImplementation on a mode report (issue #29)', () => {
  const reports: Record<'investigate' | 'refine', ModeReport> = {
    investigate: {
      mode: 'investigate',
      summary: 's',
      rootCause: 'r',
      evidence: [],
      files: [],
      fixes: [{ tempID: 'f', title: 'Fix', body: 'b', labels: [], blockedBy: [] }],
    },
    refine: {
      mode: 'refine',
      summary: 's',
      title: null,
      body: 'b',
      acceptanceCriteria: ['c'],
      files: [],
      size: 'low',
      labels: [],
    },
  };
  const setting = { investigate: 'investigations', refine: 'refinements' } as const;

  it.each([
    ['investigate', 'auto', 'applyModeResult'],
    ['investigate', 'required', 'proposeModeResult'],
    ['refine', 'auto', 'applyModeResult'],
    ['refine', 'required', 'proposeModeResult'],
  ] as const)('%s with approval %s → %s', (mode, approval, command) => {
    const before = buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', status: 'in-progress', mode })],
      agentRuns: [buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-1' })],
    });
    const event = {
      ...buildSampleEvents().implementorCompleted,
      sessionID: 's-1',
      workItemID: 'wi-1',
      branchName: 'flotilla/wi-1',
      result: { ...buildImplementorResult({ outcome: 'completed' }), report: reports[mode] },
    };
    const config = buildHandlerConfig({ approval: { plans: 'auto', [setting[mode]]: approval } });
    expect(runHandlerAfterUpdate(handleImplementation, event, before, config)).toEqual([
      { type: command, workItemID: 'wi-1', sessionID: 's-1', report: reports[mode] },
    ]);
  });
});

describe('handleImplementation on an automatic refinement (issue #29, handle-auto-refinement.ts)', () => {
  const report: ModeReport = {
    mode: 'refine',
    summary: 's',
    title: null,
    body: 'b',
    acceptanceCriteria: ['c'],
    files: [],
    size: 'low',
    labels: [],
  };
  /** Item wi-1 waits in `status` while its refine run (no `task:refine` label) runs. */
  function waiting(status: 'needs-refinement' | 'pending' | 'closed', kind: 'task' | 'refinement' = 'task') {
    return buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', status, kind })],
      agentRuns: [buildImplementorRun({ sessionID: 's-1', workItemID: 'wi-1', mode: 'refine' })],
    });
  }
  const completed = {
    ...buildSampleEvents().implementorCompleted,
    sessionID: 's-1',
    workItemID: 'wi-1',
    branchName: 'flotilla/wi-1',
    result: { ...buildImplementorResult({ outcome: 'completed' }), report },
  };
  const failed: ImplementorFailed = {
    type: 'implementorFailed',
    sessionID: 's-1',
    workItemID: 'wi-1',
    branchName: 'flotilla/wi-1',
    reason: 'error',
    error: 'the model server went away',
    logFilePath: null,
    usage: null,
    at: 5,
  };

  it('leaves the item where it waits when the run is accepted (no in-progress)', () => {
    const before = buildTestState({ workItems: [buildWorkItem({ id: 'wi-1', status: 'needs-refinement' })] });
    const requested = {
      type: 'implementorRequested' as const,
      sessionID: 's-1',
      workItemID: 'wi-1',
      branchName: 'flotilla/wi-1',
      mode: 'refine' as const,
      at: 1,
    };
    expect(runHandlerAfterUpdate(handleImplementation, requested, before)).toEqual([]);
  });

  it('answered, its resume takes the item from waiting-for-input back to needs-refinement', () => {
    const before = buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', status: 'waiting-for-input', kind: 'refinement' })],
    });
    const resumed = {
      type: 'implementorRequested' as const,
      sessionID: 's-2',
      workItemID: 'wi-1',
      branchName: 'flotilla/wi-1',
      mode: 'refine' as const,
      sessionNumber: 2,
      at: 1,
    };
    expect(runHandlerAfterUpdate(handleImplementation, resumed, before)).toEqual([
      {
        type: 'transitionWorkItemStatus',
        workItemID: 'wi-1',
        newStatus: 'needs-refinement',
        cause: 'questions-answered',
      },
    ]);
  });

  it('proposes or applies its report from needs-refinement, or a task:refinement item’s pending', () => {
    const required = buildHandlerConfig({ approval: { plans: 'auto', refinements: 'required' } });
    const fields = { workItemID: 'wi-1', sessionID: 's-1', report };
    expect(
      runHandlerAfterUpdate(handleImplementation, completed, waiting('needs-refinement'), required),
    ).toEqual([{ type: 'proposeModeResult', ...fields }]);
    expect(runHandlerAfterUpdate(handleImplementation, completed, waiting('pending', 'refinement'))).toEqual([
      { type: 'applyModeResult', ...fields },
    ]);
  });

  it('keeps a report in a comment, unapplied, when a human moved the item meanwhile', () => {
    const commands = runHandlerAfterUpdate(handleImplementation, completed, waiting('closed'));
    expect(commands).toEqual([expect.objectContaining({ type: 'commentOnWorkItem', workItemID: 'wi-1' })]);
  });

  it('a failure is a comment only: no retry, no pending (which would implement the vague item)', () => {
    const commands = runHandlerAfterUpdate(handleImplementation, failed, waiting('needs-refinement'));
    expect(commands).toEqual([
      {
        type: 'commentOnWorkItem',
        workItemID: 'wi-1',
        body: expect.stringContaining('the model server went away'),
      },
    ]);
    expect(runHandlerAfterUpdate(handleImplementation, failed, waiting('closed'))).toEqual([]);
  });

  it('a stopped run (cancelled, Ctrl-C) says the next start refines the item again', () => {
    const stopped = { ...failed, reason: 'cancelled' as const, error: 'cancelled: shutting down' };
    const [comment] = runHandlerAfterUpdate(handleImplementation, stopped, waiting('needs-refinement'));
    expect(comment).toMatchObject({ type: 'commentOnWorkItem', body: expect.stringContaining('next start') });
    const [own] = runHandlerAfterUpdate(handleImplementation, failed, waiting('needs-refinement'));
    expect(own).toMatchObject({ body: expect.stringContaining('not retried on its own') });
  });
});
