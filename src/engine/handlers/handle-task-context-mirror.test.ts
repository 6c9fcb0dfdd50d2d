import { describe, expect, it } from 'vitest';
import { buildTestState } from '../../../test/support/shared/builders/index.ts';
import { buildTaskContextComment, type EngineEvent, type TaskContextEntry } from '../../domain/index.ts';
import { handleTaskContextMirror } from './handle-task-context-mirror.ts';

const CONFIG = { maxAttempts: 3, maxReviewRounds: 3, maxCheckRounds: 2 };

function entry(sessionID: string, type: TaskContextEntry['type']): TaskContextEntry {
  return {
    id: `${sessionID}:${type}`,
    workItemID: '4',
    sessionID,
    role: 'implementor',
    runtime: 'claude',
    type,
    summary: 'done',
    data: {},
    createdAt: 1,
  };
}

const completed = {
  type: 'implementorCompleted',
  sessionID: 's2',
  workItemID: '4',
  branchName: 'flotilla/4',
  logFilePath: null,
  usage: null,
  at: 1,
  result: { role: 'implementor', outcome: 'completed', summary: 'done', patch: '' },
} as const satisfies EngineEvent;

describe('handleTaskContextMirror', () => {
  const state = buildTestState({
    taskContext: { '4': [entry('s1', 'implementation_summary'), entry('s2', 'fix_summary')] },
  });

  it("posts the entries the run's end added, on a provider that keeps them", () => {
    expect(handleTaskContextMirror(completed, state, { ...CONFIG, mirrorTaskContext: true })).toEqual([
      {
        type: 'commentOnWorkItem',
        workItemID: '4',
        body: buildTaskContextComment(entry('s2', 'fix_summary')),
      },
    ]);
  });

  it('posts nothing on a provider without the mirror, nor for other events', () => {
    expect(handleTaskContextMirror(completed, state, CONFIG)).toEqual([]);
    expect(
      handleTaskContextMirror(
        { type: 'implementorStarted', sessionID: 's2', logFilePath: null, at: 1 },
        state,
        { ...CONFIG, mirrorTaskContext: true },
      ),
    ).toEqual([]);
  });

  it("posts a human's answers entry once the answer is applied", () => {
    const answers: TaskContextEntry = { ...entry('s3', 'answers'), id: 's3:answers:2' };
    const waiting = {
      workItemID: '4',
      role: 'implementor' as const,
      sessionID: 's3',
      sessionNumber: 2,
      revisionID: null,
      questions: ['Which port?'],
      session: { runtime: 'claude', agentSessionID: null, worktree: null, stateDir: null },
      askedAt: 1,
      answers: '8080',
    };
    const answered = { ...state, taskContext: { '4': [answers] }, waitingForInput: { '4': waiting } };
    const event: EngineEvent = {
      type: 'questionsAnswered',
      workItemID: '4',
      answers: '8080',
      source: 'user',
    };
    const on = { ...CONFIG, mirrorTaskContext: true };
    expect(handleTaskContextMirror(event, answered, on)).toEqual([
      { type: 'commentOnWorkItem', workItemID: '4', body: buildTaskContextComment(answers) },
    ]);
    // An answer to no waiting session (already resumed) posts nothing.
    expect(handleTaskContextMirror(event, { ...answered, waitingForInput: {} }, on)).toEqual([]);
  });
});
