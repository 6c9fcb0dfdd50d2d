import { describe, expect, it } from 'vitest';
import { createExecutorFixture } from '../../../test/support/engine/create-executor-fixture.ts';
import type { WaitingSession } from '../../domain/index.ts';

function waitingOn(workItemID: string, answers: string | null): WaitingSession {
  return {
    workItemID,
    role: 'implementor',
    sessionID: `asked-${workItemID}`,
    sessionNumber: 1,
    revisionID: null,
    questions: ['Which database?'],
    session: {
      runtime: 'cli',
      agentSessionID: `asked-${workItemID}`,
      worktree: null,
      stateDir: `/state/${workItemID}`,
    },
    askedAt: 1,
    answers,
  };
}

describe('command executor: discardWaitingSession', () => {
  it('discards a kept session, unless its resume was admitted a moment ago (that run uses it)', async () => {
    const { executor, snapshot, provider, started, discarded } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'Resumed', status: 'waiting-for-input' });
    provider.control.addWorkItem({ title: 'Queued', status: 'waiting-for-input' });
    const resumed = waitingOn('1', 'SQLite.');
    const queued = waitingOn('2', 'SQLite.');
    const state = await snapshot({ waitingForInput: { '1': resumed, '2': queued } });
    const resume = { waiting: resumed, answers: 'SQLite.' };
    await executor.execute({ type: 'requestImplementorRun', workItemID: '1', resume }, state);
    expect(started.map((run) => run.command)).toEqual([
      { type: 'requestImplementorRun', workItemID: '1', resume },
    ]);

    // Its implementorRequested (which takes the wait over) is not applied yet: the wait is still recorded.
    expect(await executor.execute({ type: 'discardWaitingSession', workItemID: '1' }, state)).toEqual([]);
    expect(discarded).toEqual([]);
    const events = await executor.execute({ type: 'discardWaitingSession', workItemID: '2' }, state);
    expect(events.map((event) => event.type)).toEqual(['waitingSessionDiscarded']);
    expect(discarded).toEqual([queued.session]);
  });
});
