import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildPlannerRun,
  buildReviewerRun,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import { deepFreeze } from '../../../test/support/shared/deep-freeze.ts';
import type { EngineEvent } from '../../domain/index.ts';
import { applyStateUpdate } from './apply-state-update.ts';
import type { EngineState } from './engine-state.ts';

const PATCH = 'diff --git a/src/a.ts b/src/a.ts\n+x\ndiff --git a/b.md b/b.md\n+y\n';
const ended = { logFilePath: null, usage: null, at: 5_000 };

function stateWith(linkedRevision: string | null): EngineState {
  return buildTestState({
    workItems: [buildWorkItem({ id: 'wi-1', status: 'in-progress', linkedRevision })],
    agentRuns: [
      buildImplementorRun({ sessionID: 'i1', runtime: 'claude' }),
      buildReviewerRun({ sessionID: 'r1', workItemID: 'wi-1', revisionID: 'rev-1' }),
    ],
  });
}

const apply = (state: EngineState, event: EngineEvent) =>
  applyStateUpdate(deepFreeze(state), deepFreeze(event)).state;

describe('task context entries (applyStateUpdate)', () => {
  it("records a completed implementor's summary and files; a second run on a revision is a fix", () => {
    const completed: EngineEvent = {
      type: 'implementorCompleted',
      sessionID: 'i1',
      workItemID: 'wi-1',
      branchName: 'flotilla/wi-1',
      result: { role: 'implementor', outcome: 'completed', summary: 'added a', patch: PATCH },
      ...ended,
    };
    expect(apply(stateWith(null), completed).taskContext['wi-1']).toEqual([
      {
        id: 'i1:implementation_summary',
        workItemID: 'wi-1',
        sessionID: 'i1',
        role: 'implementor',
        runtime: 'claude',
        type: 'implementation_summary',
        summary: 'added a',
        data: { outcome: 'completed', revisionID: null, files: ['src/a.ts', 'b.md'] },
        createdAt: 5_000,
      },
    ]);
    expect(apply(stateWith('rev-1'), completed).taskContext['wi-1']?.[0]?.type).toBe('fix_summary');
  });

  it("records a reviewer's verdict with its comments, and cuts a long summary to 2,000 characters", () => {
    const next = apply(stateWith('rev-1'), {
      type: 'reviewerCompleted',
      sessionID: 'r1',
      workItemID: 'wi-1',
      revisionID: 'rev-1',
      result: {
        role: 'reviewer',
        review: {
          verdict: 'needs-changes',
          summary: 'z'.repeat(2_500),
          comments: [{ path: 'src/a.ts', line: 3, body: 'rename' }],
        },
      },
      ...ended,
    });
    const [entry] = next.taskContext['wi-1'] ?? [];
    expect(entry).toMatchObject({
      type: 'review_feedback',
      role: 'reviewer',
      data: { verdict: 'needs-changes', comments: [{ path: 'src/a.ts', line: 3, body: 'rename' }] },
    });
    expect(entry?.summary).toHaveLength(2_000);
    expect(entry?.summary.endsWith('…')).toBe(true);
  });

  it('records validation and no-changes failures, but not errors; a replayed end adds nothing', () => {
    const failed = (sessionID: string, reason: 'validation' | 'no-changes' | 'error'): EngineEvent => ({
      type: 'implementorFailed',
      sessionID,
      workItemID: 'wi-1',
      branchName: 'flotilla/wi-1',
      reason,
      error: `${reason} happened`,
      ...ended,
    });
    const base = stateWith(null);
    expect(apply(base, failed('i1', 'error')).taskContext).toEqual({});
    const once = apply(base, failed('i1', 'no-changes'));
    expect(once.taskContext['wi-1']?.map((entry) => [entry.type, entry.summary])).toEqual([
      ['no_changes', 'no-changes happened'],
    ]);
    expect(apply(once, failed('i1', 'no-changes')).taskContext).toBe(once.taskContext);
    expect(apply(base, failed('i1', 'validation')).taskContext['wi-1']?.[0]?.type).toBe('validation_failure');
  });

  it("makes an applied investigation's report a context entry of each fix item it created (issue #29)", () => {
    const applied: EngineEvent = {
      type: 'modeResultApplied',
      workItemID: 'wi-1',
      sessionID: 'i1',
      report: {
        mode: 'investigate',
        summary: 'greet() assumes a name.',
        rootCause: 'name.trim() on undefined',
        evidence: ['TypeError'],
        files: ['src/greet.js'],
        fixes: [],
      },
      createdIDs: ['wi-2', 'wi-3'],
      at: 6_000,
    };
    const after = apply(stateWith(null), applied);
    for (const id of ['wi-2', 'wi-3'])
      expect(after.taskContext[id]).toEqual([
        expect.objectContaining({
          workItemID: id,
          type: 'investigation_report',
          summary: 'Investigation of #wi-1: greet() assumes a name.\n\nRoot cause: name.trim() on undefined',
          data: { investigatedItem: 'wi-1', evidence: ['TypeError'], files: ['src/greet.js'] },
        }),
      ]);
    // Applied again (a replay): nothing is added twice.
    expect(apply(after, applied).taskContext['wi-2']).toHaveLength(1);
  });

  it("records a human's answers to a waiting run's questions once, not a planner's", () => {
    const waiting = (role: 'implementor' | 'planner') => ({
      workItemID: 'wi-1',
      role,
      sessionID: 'i1',
      sessionNumber: 1,
      revisionID: null,
      questions: ['Per key or per IP?'],
      session: { runtime: 'codex', agentSessionID: 't-1', worktree: null, stateDir: null },
      askedAt: 4_000,
      answers: null,
    });
    const asked = (role: 'implementor' | 'planner'): EngineState => ({
      ...stateWith(null),
      waitingForInput: { 'wi-1': waiting(role) },
    });
    const answered: EngineEvent = {
      type: 'questionsAnswered',
      workItemID: 'wi-1',
      answers: 'Per key.',
      source: 'user',
      at: 6_000,
    };
    const next = apply(asked('implementor'), answered);
    expect(next.taskContext['wi-1']).toEqual([
      {
        id: 'i1:answers:1',
        workItemID: 'wi-1',
        sessionID: 'i1',
        role: 'implementor',
        runtime: 'claude',
        type: 'answers',
        summary: "A human answered the implementor's questions:\nPer key.",
        data: { questions: ['Per key or per IP?'], source: 'user' },
        createdAt: 6_000,
      },
    ]);
    // A second answer to the same questions is not taken (the first resumes the session).
    expect(apply(next, answered).taskContext).toBe(next.taskContext);
    // Without a time the entry is dated by the questions.
    const { at: _at, ...undated } = answered as Extract<EngineEvent, { type: 'questionsAnswered' }>;
    expect(apply(asked('implementor'), undated).taskContext['wi-1']?.[0]?.createdAt).toBe(4_000);
    expect(apply(asked('planner'), answered).taskContext).toEqual({});
  });

  it("gives each item a plan created or updated the plan's summary, with what else it created", () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', status: 'pending' })],
      agentRuns: [buildPlannerRun({ sessionID: 'p1', specPaths: ['docs/specs/store.md'], runtime: 'codex' })],
    });
    const applied = (planSummary: string | null): EngineEvent => ({
      type: 'planApplied',
      sessionID: 'p1',
      summary: planSummary,
      created: [
        { workItemID: 'wi-2', title: 'The store' },
        { workItemID: 'wi-3', title: 'Its API' },
      ],
      updatedIDs: ['wi-1'],
      at: 7_000,
    });
    const next = apply(state, applied('The store first, then its API.'));
    const summary =
      'The store first, then its API.\nCreated: #wi-2 The store; #wi-3 Its API.\nUpdated: #wi-1.';
    expect(next.taskContext['wi-3']).toEqual([
      {
        id: 'p1:plan_summary:wi-3',
        workItemID: 'wi-3',
        sessionID: 'p1',
        role: 'planner',
        runtime: 'codex',
        type: 'plan_summary',
        summary,
        data: { specPaths: ['docs/specs/store.md'], created: ['wi-2', 'wi-3'], updated: ['wi-1'] },
        createdAt: 7_000,
      },
    ]);
    expect(Object.keys(next.taskContext).sort()).toEqual(['wi-1', 'wi-2', 'wi-3']);
    // Once per item, and a planner without a summary is described by its specs.
    expect(apply(next, applied('again')).taskContext).toBe(next.taskContext);
    expect(apply(state, applied(null)).taskContext['wi-2']?.[0]?.summary).toMatch(
      /^The planner planned from docs\/specs\/store\.md\.\nCreated: /,
    );
  });
});
