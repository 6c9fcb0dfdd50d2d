import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/support/shared/create-temp-dir.ts';
import {
  STATE_BACKENDS,
  type StateBackend,
  useStateBackend,
} from '../../../test/support/storage/use-state-backend.ts';
import type { EngineEvent, PlannerResult } from '../../domain/index.ts';
import { applyStateUpdate } from '../../engine/state-store/apply-state-update.ts';
import { buildInitialEngineState, type EngineState } from '../../engine/state-store/engine-state.ts';
import { getSpecsRequiringPlanning } from '../../engine/state-store/selectors/index.ts';
import { type Database, openDatabase } from '../open-database.ts';
import {
  createEngineStatePersistence,
  type EngineStatePersistence,
  INTERRUPTED_RUN_ERROR,
} from './create-engine-state-persistence.ts';

let dir: ReturnType<typeof createTempDir>;
let path: string;
let db: Database;
let persistence: EngineStatePersistence;
let state: EngineState;
let backend: StateBackend;

/** A restarted process: both databases reconnected, the same data. */
function reopen(now = () => 9_000): void {
  db.close();
  db = openDatabase(path);
  const sharedState = backend.reopen();
  persistence = createEngineStatePersistence(db, { now, ...(sharedState !== undefined && { sharedState }) });
}

/** Applies the event as the engine does, then hands it to the persistence listener. */
function feed(...events: EngineEvent[]): void {
  for (const event of events) {
    state = applyStateUpdate(state, event).state;
    persistence.record(event, state);
  }
}

/** Every engine-state table (the SQLite ones but the local tracker's). */
const ENGINE_STATE_TABLES = [
  'agent_runs',
  'budget_ledger',
  'budget_overrides',
  'runtime_parkings',
  'waiting_sessions',
  'planner_waiting_sessions',
  'planned_specs',
  'task_context',
  'proposals',
  'memories',
  'agent_notes',
  'agent_conversations',
  'engine_errors',
];

const usage = { costUSD: 0.25, inputTokens: 1200, outputTokens: 300, turns: 4 };
const emptyPlan: PlannerResult = { role: 'planner', create: [], close: [], update: [] };

// One body, both backends: the whole engine state on SQLite (one machine) and on PostgreSQL (cluster mode,
// `sharedState`).
describe.each(STATE_BACKENDS)('engine state persistence on %s', (backendName) => {
  const shared = useStateBackend(backendName);

  beforeEach(() => {
    backend = shared;
    dir = createTempDir();
    path = join(dir.path, '.flotilla', 'flotilla.db');
    db = openDatabase(path);
    const sharedState = shared.connection();
    persistence = createEngineStatePersistence(db, {
      now: () => 9_000,
      ...(sharedState !== undefined && { sharedState }),
    });
    state = buildInitialEngineState();
  });

  afterEach(() => {
    // Cluster mode writes nothing to the SQLite file: every test's rows went to PostgreSQL only.
    if (backendName === 'postgres' && db.open) {
      const local = ENGINE_STATE_TABLES.filter(
        (table) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n > 0,
      );
      expect(local, 'engine-state tables with rows in the SQLite file').toEqual([]);
    }
    if (db.open) db.close();
    dir.remove();
  });

  describe('run history', () => {
    it('records an implementor run through its lifecycle with log, usage and times', () => {
      feed({
        type: 'implementorRequested',
        sessionID: 's1',
        workItemID: '7',
        branchName: 'flotilla/7',
        at: 100,
        estimatedFiles: ['src/a.ts', 'src/b.ts'],
      });
      expect(persistence.getRun('s1')).toMatchObject({
        status: 'requested',
        requestedAt: 100,
        endedAt: null,
      });
      feed({ type: 'implementorStarted', sessionID: 's1', logFilePath: '/logs/s1.jsonl', at: 110 });
      expect(persistence.getRun('s1')?.status).toBe('running');
      feed({
        type: 'implementorCompleted',
        sessionID: 's1',
        workItemID: '7',
        branchName: 'flotilla/7',
        logFilePath: null,
        usage,
        at: 500,
        result: {
          role: 'implementor',
          outcome: 'completed',
          summary: 'done',
          patch: 'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-x\n+y\n',
        },
      });
      expect(persistence.getRun('s1')).toEqual({
        role: 'implementor',
        sessionID: 's1',
        status: 'completed',
        workItemID: '7',
        branchName: 'flotilla/7',
        estimatedFiles: ['src/a.ts', 'src/b.ts'],
        changedFiles: ['src/a.ts'],
        logFilePath: '/logs/s1.jsonl',
        error: null,
        requestedAt: 100,
        endedAt: 500,
        usage,
        cancelRequestedBy: null,
        failureReason: null,
      });
    });

    it('records failures with their reason and error, and reviewer and planner fields', () => {
      feed(
        { type: 'reviewerRequested', sessionID: 'r1', workItemID: '7', revisionID: '9', at: 100 },
        { type: 'reviewerStarted', sessionID: 'r1', logFilePath: null, at: 101 },
        {
          type: 'reviewerFailed',
          sessionID: 'r1',
          workItemID: '7',
          revisionID: '9',
          logFilePath: '/logs/r1.jsonl',
          usage: null,
          at: 200,
          reason: 'timeout',
          error: 'took longer than 600 s',
        },
        {
          type: 'plannerRequested',
          sessionID: 'p1',
          specPaths: ['docs/specs/a.md'],
          specSHAs: { 'docs/specs/a.md': 'sha-a' },
          at: 300,
        },
        {
          type: 'plannerFailed',
          sessionID: 'p1',
          specPaths: ['docs/specs/a.md'],
          logFilePath: null,
          usage: null,
          at: 301,
          reason: 'error',
          error: 'agent definition missing',
        },
      );
      expect(persistence.getRun('r1')).toMatchObject({
        role: 'reviewer',
        revisionID: '9',
        status: 'timed-out',
        failureReason: 'timeout',
        error: 'took longer than 600 s',
        logFilePath: '/logs/r1.jsonl',
        usage: null,
        endedAt: 200,
      });
      expect(persistence.getRun('p1')).toMatchObject({
        role: 'planner',
        status: 'failed',
        failureReason: 'error',
        specPaths: ['docs/specs/a.md'],
        specSHAs: { 'docs/specs/a.md': 'sha-a' },
      });
      expect(persistence.getRun('nope')).toBeNull();
    });

    it('records a user cancel request and the cancelled end', () => {
      feed(
        { type: 'implementorRequested', sessionID: 's1', workItemID: '7', branchName: 'flotilla/7', at: 1 },
        { type: 'implementorStarted', sessionID: 's1', logFilePath: null, at: 2 },
        { type: 'userCancelledRun', sessionID: 's1' },
      );
      expect(persistence.getRun('s1')?.cancelRequestedBy).toBe('user');
      feed({
        type: 'implementorFailed',
        sessionID: 's1',
        workItemID: '7',
        branchName: 'flotilla/7',
        logFilePath: null,
        usage: null,
        at: 3,
        reason: 'cancelled',
        error: 'cancelled by the user',
      });
      expect(persistence.getRun('s1')).toMatchObject({ status: 'cancelled', failureReason: 'cancelled' });
    });

    it('keeps `validation` apart from `error` in the run history, across a reopen', () => {
      feed(
        { type: 'implementorRequested', sessionID: 'v1', workItemID: '7', branchName: 'flotilla/7', at: 1 },
        { type: 'implementorStarted', sessionID: 'v1', logFilePath: null, at: 2 },
        {
          type: 'implementorFailed',
          sessionID: 'v1',
          workItemID: '7',
          branchName: 'flotilla/7',
          logFilePath: null,
          usage,
          at: 3,
          reason: 'validation',
          error: 'npm test still fails after 3 rounds',
        },
      );
      expect(persistence.getRun('v1')).toMatchObject({ status: 'failed', failureReason: 'validation' });
      reopen();
      expect(persistence.getRun('v1')).toMatchObject({ status: 'failed', failureReason: 'validation' });
    });

    it.each(['unavailable', 'rate-limit'] as const)(
      'keeps the %s reason in the run history, across a reopen',
      (reason) => {
        feed(
          { type: 'implementorRequested', sessionID: 'r1', workItemID: '7', branchName: 'flotilla/7', at: 1 },
          {
            type: 'implementorFailed',
            sessionID: 'r1',
            workItemID: '7',
            branchName: 'flotilla/7',
            logFilePath: null,
            usage: null,
            at: 3,
            reason,
            error: 'not started',
          },
        );
        reopen();
        expect(persistence.getRun('r1')).toMatchObject({ status: 'failed', failureReason: reason });
      },
    );

    it('lists runs newest first, by work item, up to a limit', () => {
      feed(
        { type: 'implementorRequested', sessionID: 'a', workItemID: '1', branchName: 'flotilla/1', at: 10 },
        { type: 'implementorRequested', sessionID: 'b', workItemID: '2', branchName: 'flotilla/2', at: 20 },
        { type: 'reviewerRequested', sessionID: 'c', workItemID: '1', revisionID: '3', at: 30 },
        { type: 'plannerRequested', sessionID: 'd', specPaths: [], specSHAs: {}, at: 40 },
      );
      expect(persistence.listRuns().map((run) => run.sessionID)).toEqual(['d', 'c', 'b', 'a']);
      expect(persistence.listRuns({ limit: 2 }).map((run) => run.sessionID)).toEqual(['d', 'c']);
      expect(persistence.listRuns({ workItemID: '1' }).map((run) => run.sessionID)).toEqual(['c', 'a']);
      expect(persistence.listRuns({ workItemID: '99' })).toEqual([]);
      expect(() => persistence.listRuns({ limit: 0 })).toThrow(/limit must be a positive integer, got 0/);
    });

    it('sums the reported cost of every run (runs without usage count as 0)', () => {
      expect(persistence.totalCostUSD()).toBe(0);
      const complete = (sessionID: string, costUSD: number | null) =>
        feed(
          { type: 'implementorRequested', sessionID, workItemID: '1', branchName: 'flotilla/1', at: 10 },
          {
            type: 'implementorFailed',
            sessionID,
            workItemID: '1',
            branchName: 'flotilla/1',
            logFilePath: null,
            usage: costUSD === null ? null : { ...usage, costUSD },
            reason: 'error',
            error: 'x',
            at: 20,
          },
        );
      complete('a', 0.25);
      complete('b', null);
      complete('c', 1.5);
      expect(persistence.totalCostUSD()).toBeCloseTo(1.75, 10);
    });

    it('records the runtime a run started with and leaves scripted (made-up) costs out of the total', () => {
      const run = (sessionID: string, runtime: string, costUSD: number) =>
        feed(
          { type: 'reviewerRequested', sessionID, workItemID: '1', revisionID: '2', at: 10 },
          { type: 'reviewerStarted', sessionID, logFilePath: null, at: 11, runtime },
          {
            type: 'reviewerFailed',
            sessionID,
            workItemID: '1',
            revisionID: '2',
            logFilePath: null,
            usage: { ...usage, costUSD },
            reason: 'error',
            error: 'x',
            at: 20,
          },
        );
      run('real', 'claude', 0.5);
      run('made-up', 'scripted', 0.25);
      expect(persistence.getRun('real')?.runtime).toBe('claude');
      expect(persistence.getRun('made-up')?.runtime).toBe('scripted');
      expect(persistence.totalCostUSD()).toBeCloseTo(0.5, 10);
    });
  });

  describe('restart', () => {
    it('marks runs that were active when the process died as failed, and restores none of them', () => {
      feed(
        {
          type: 'implementorRequested',
          sessionID: 'running',
          workItemID: '1',
          branchName: 'flotilla/1',
          at: 10,
        },
        { type: 'implementorStarted', sessionID: 'running', logFilePath: '/logs/running.jsonl', at: 11 },
        { type: 'reviewerRequested', sessionID: 'requested', workItemID: '2', revisionID: '5', at: 12 },
        { type: 'plannerRequested', sessionID: 'done', specPaths: [], specSHAs: {}, at: 13 },
        { type: 'plannerStarted', sessionID: 'done', logFilePath: null, at: 14 },
        {
          type: 'plannerCompleted',
          sessionID: 'done',
          specPaths: [],
          logFilePath: null,
          usage: null,
          at: 15,
          result: emptyPlan,
        },
      );
      // The process dies here: no *Failed event is ever recorded.
      reopen(() => 9_000);
      const initial = persistence.loadInitialState();
      // Runs are not restored (the type says so too): only the planned SHAs, parkings, waiting sessions,
      // when each account was last used, the task context, the pending proposals and the refined bodies.
      expect(Object.keys(initial)).toEqual([
        'lastPlannedSHAs',
        'parkings',
        'waitingForInput',
        'accountsLastUsed',
        'taskContext',
        'proposals',
        'refinedBodies',
      ]);
      for (const sessionID of ['running', 'requested']) {
        expect(persistence.getRun(sessionID)).toMatchObject({
          status: 'failed',
          failureReason: 'error',
          error: INTERRUPTED_RUN_ERROR,
          endedAt: 9_000,
        });
      }
      expect(persistence.getRun('running')?.logFilePath).toBe('/logs/running.jsonl');
      expect(persistence.getRun('done')).toMatchObject({ status: 'completed', endedAt: 15, error: null });
      // Recovery is idempotent.
      expect(persistence.recoverInterruptedRuns()).toEqual([]);
    });

    it("restores each account's last use from the run history, interrupted runs included", () => {
      feed(
        {
          type: 'implementorRequested',
          sessionID: 'a1',
          workItemID: '1',
          branchName: 'b',
          account: 'work',
          at: 10,
        },
        {
          type: 'implementorRequested',
          sessionID: 'a2',
          workItemID: '1',
          branchName: 'b',
          account: 'spare',
          at: 20,
        },
        {
          type: 'reviewerRequested',
          sessionID: 'a3',
          workItemID: '2',
          revisionID: '5',
          account: 'work',
          at: 15,
        },
        { type: 'plannerRequested', sessionID: 'a4', specPaths: [], specSHAs: {}, at: 30 },
      );
      // What the state kept while it ran is what a restart reads back, though no run ended (the process died).
      expect(state.accountsLastUsed).toEqual({ work: 15, spare: 20 });
      reopen();
      expect(persistence.loadInitialState().accountsLastUsed).toEqual({ work: 15, spare: 20 });
    });

    it('reports the runs it recovered', () => {
      feed({
        type: 'implementorRequested',
        sessionID: 's',
        workItemID: '1',
        branchName: 'flotilla/1',
        at: 10,
      });
      reopen();
      expect(persistence.recoverInterruptedRuns().map((run) => [run.sessionID, run.status])).toEqual([
        ['s', 'failed'],
      ]);
    });

    it('keeps the SHAs the planner was given across a reopen, so nothing is re-planned', () => {
      const specs = {
        'docs/specs/a.md': {
          filePath: 'docs/specs/a.md',
          blobSHA: 'a1',
          frontmatterStatus: 'approved' as const,
        },
        'docs/specs/b.md': {
          filePath: 'docs/specs/b.md',
          blobSHA: 'b1',
          frontmatterStatus: 'approved' as const,
        },
      };
      feed(
        {
          type: 'plannerRequested',
          sessionID: 'p',
          specPaths: ['docs/specs/a.md', 'docs/specs/b.md'],
          specSHAs: { 'docs/specs/a.md': 'a1', 'docs/specs/b.md': 'b1' },
          at: 1,
        },
        { type: 'plannerStarted', sessionID: 'p', logFilePath: null, at: 2 },
        {
          type: 'plannerCompleted',
          sessionID: 'p',
          specPaths: ['docs/specs/a.md', 'docs/specs/b.md'],
          logFilePath: null,
          usage: null,
          at: 3,
          result: emptyPlan,
        },
      );
      reopen();
      const initial = persistence.loadInitialState();
      expect(initial.lastPlannedSHAs).toEqual({ 'docs/specs/a.md': 'a1', 'docs/specs/b.md': 'b1' });
      const restarted = buildInitialEngineState({ ...initial, specs });
      expect(getSpecsRequiringPlanning(restarted)).toEqual([]);
      // An edit after the restart is planned again.
      const edited = { ...specs, 'docs/specs/b.md': { ...specs['docs/specs/b.md'], blobSHA: 'b2' } };
      expect(getSpecsRequiringPlanning({ ...restarted, specs: edited }).map((spec) => spec.filePath)).toEqual(
        ['docs/specs/b.md'],
      );
    });

    it('does not record planned SHAs for a failed planner run', () => {
      feed(
        { type: 'plannerRequested', sessionID: 'p', specPaths: ['a.md'], specSHAs: { 'a.md': 'a1' }, at: 1 },
        {
          type: 'plannerFailed',
          sessionID: 'p',
          specPaths: ['a.md'],
          logFilePath: null,
          usage: null,
          at: 2,
          reason: 'error',
          error: 'x',
        },
      );
      reopen();
      expect(persistence.loadInitialState().lastPlannedSHAs).toEqual({});
    });
  });

  describe('errors', () => {
    it('records errors, failed commands and non-duplicate rejections, newest first', () => {
      const command = { type: 'requestImplementorRun' as const, workItemID: '4' };
      feed(
        { type: 'errorRecorded', source: 'spec-poller', message: 'git ls-tree failed', at: 1 },
        { type: 'commandRejected', command, reason: 'already running', kind: 'duplicate', at: 2 },
        { type: 'commandRejected', command, reason: 'policy says no', kind: 'policy', at: 3 },
        { type: 'commandFailed', command, error: 'patch does not apply', at: 4 },
      );
      reopen();
      const errors = persistence.listErrors();
      expect(errors.map((error) => [error.at, error.source, error.message])).toEqual([
        [4, 'command-executor', 'requestImplementorRun failed: patch does not apply'],
        [3, 'command-executor', 'requestImplementorRun rejected (policy): policy says no'],
        [1, 'spec-poller', 'git ls-tree failed'],
      ]);
      expect(errors[2]?.eventType).toBe('errorRecorded');
      expect(JSON.parse(errors[0]?.eventJSON ?? 'null')).toMatchObject({ type: 'commandFailed', at: 4 });
      expect(persistence.listErrors({ limit: 1 })).toHaveLength(1);
    });

    it('writes nothing for events that change no durable state', () => {
      feed({
        type: 'dispatchQueued',
        command: { type: 'requestPlannerRun', specPaths: [], specSHAs: {} },
        reason: 'capacity',
        notBefore: null,
        priority: 0,
        at: 1,
      });
      expect(persistence.listRuns()).toEqual([]);
      expect(persistence.listErrors()).toEqual([]);
    });
  });

  describe("a planner's waiting session", () => {
    const specSHAs = { 'docs/specs/a.md': 'sha-a', 'docs/specs/b.md': 'sha-b' };
    const session = { runtime: 'claude', agentSessionID: 'p1', worktree: null, stateDir: '/state/runs/p1' };

    it('is kept across a restart with the specs it was given, and goes once its resume is requested', () => {
      feed(
        { type: 'plannerRequested', sessionID: 'p1', specPaths: Object.keys(specSHAs), specSHAs, at: 10 },
        { type: 'plannerStarted', sessionID: 'p1', logFilePath: null, at: 11 },
        {
          type: 'agentAskedQuestions',
          sessionID: 'p1',
          role: 'planner',
          workItemID: '12',
          revisionID: null,
          questions: ['Expire entries?'],
          session,
          logFilePath: null,
          usage: null,
          at: 20,
        },
      );
      reopen();
      const restored = persistence.loadInitialState().waitingForInput;
      expect(restored).toEqual({
        '12': {
          workItemID: '12',
          role: 'planner',
          sessionID: 'p1',
          sessionNumber: 1,
          revisionID: null,
          questions: ['Expire entries?'],
          session,
          askedAt: 20,
          answers: null,
          specSHAs,
        },
      });
      expect(persistence.getRun('p1')).toMatchObject({ status: 'completed', askedQuestions: true });

      state = { ...state, waitingForInput: restored };
      feed({
        type: 'plannerRequested',
        sessionID: 'p2',
        specPaths: Object.keys(specSHAs),
        specSHAs,
        sessionNumber: 2,
        questionsItemID: '12',
        at: 30,
      });
      reopen();
      expect(persistence.loadInitialState().waitingForInput).toEqual({});
    });
  });

  describe('agent notes (migration 013)', () => {
    it('stores memories, decisions and questions; a summary is the running run’s live line only', () => {
      const noted = (
        note: Extract<EngineEvent, { type: 'agentNoted' }>['note'],
        at: number,
      ): EngineEvent => ({
        type: 'agentNoted',
        sessionID: 's1',
        role: 'implementor',
        workItemID: '7',
        runtime: 'codex',
        note,
        at,
      });
      feed(
        { type: 'implementorRequested', sessionID: 's1', workItemID: '7', branchName: 'flotilla/7', at: 1 },
        { type: 'implementorStarted', sessionID: 's1', logFilePath: null, at: 2 },
        noted({ kind: 'summary', text: 'Reading\nthe tests' }, 3),
        noted({ kind: 'memory', topic: 'build', text: 'make' }, 4),
        noted({ kind: 'decision', decision: 'ESM', why: 'repo is ESM' }, 5),
        noted({ kind: 'question', text: 'Trim names?' }, 6),
      );
      expect(state.agentRuns.s1?.summary).toBe('Reading the tests');
      expect(persistence.memories.list()).toMatchObject([
        {
          topic: 'build',
          text: 'make',
          source: 'implementor',
          sessionID: 's1',
          workItemID: '7',
          runtime: 'codex',
        },
      ]);
      expect(persistence.notes.listForItem('7')).toMatchObject([
        { kind: 'decision', text: 'ESM', why: 'repo is ESM', role: 'implementor', createdAt: 5 },
        { kind: 'question', text: 'Trim names?', why: null, createdAt: 6 },
      ]);
      // A finished run's summary stays as it was; a late note changes nothing.
      feed(
        {
          type: 'implementorFailed',
          sessionID: 's1',
          workItemID: '7',
          branchName: 'flotilla/7',
          reason: 'error',
          error: 'boom',
          logFilePath: null,
          usage: null,
          at: 7,
        },
        noted({ kind: 'summary', text: 'too late' }, 8),
      );
      expect(state.agentRuns.s1?.summary).toBe('Reading the tests');
      reopen();
      expect(persistence.memories.list().map((memory) => memory.topic)).toEqual(['build']);
    });
  });

  describe('agent conversations (migration 016)', () => {
    const from = { sessionID: 'sa', role: 'implementor', workItemID: '1' } as const;
    const to = { sessionID: 'sb', role: 'implementor', workItemID: '2' } as const;
    const conversation = {
      id: 'c1',
      from,
      target: '2',
      to,
      question: 'Which port?',
      status: 'open',
      answer: null,
      timeoutSeconds: 60,
      createdAt: 100,
      answeredAt: null,
    } as const;

    it('stores each conversation as created, then how it ended; survives a reopen', () => {
      feed(
        { type: 'conversationCreated', conversation, at: 100 },
        {
          type: 'conversationCreated',
          conversation: {
            ...conversation,
            id: 'c2',
            target: 'planner',
            to: null,
            status: 'not-running',
            answer: 'no planner',
            createdAt: 110,
            answeredAt: 110,
          },
          at: 110,
        },
        {
          type: 'conversationAnswered',
          conversationID: 'c1',
          status: 'answered',
          answer: 'Port 8080.',
          at: 150,
        },
      );
      reopen();
      expect(persistence.conversations.list()).toEqual([
        expect.objectContaining({ id: 'c2', to: null, status: 'not-running', answer: 'no planner' }),
        { ...conversation, status: 'answered', answer: 'Port 8080.', answeredAt: 150 },
      ]);
      expect(persistence.conversations.list({ workItemID: '2' }).map((c) => c.id)).toEqual(['c1']);
    });

    it('ends conversations a crash left open as stopped when the engine starts again', () => {
      feed({ type: 'conversationCreated', conversation, at: 100 });
      reopen(() => 9_500);
      persistence.loadInitialState();
      expect(persistence.conversations.list()).toEqual([
        expect.objectContaining({ id: 'c1', status: 'stopped', answeredAt: 9_500 }),
      ]);
    });
  });
});
