import { describe, expect, it } from 'vitest';
import { createExecutorFixture } from '../../../test/support/engine/create-executor-fixture.ts';
import { buildPlannerRun, buildReviewerRun } from '../../../test/support/shared/builders/index.ts';
import type { EngineCommand } from '../../domain/index.ts';

describe('command executor: run requests', () => {
  it('starts exactly one planner for a burst of requests in one snapshot', async () => {
    const { executor, snapshot, started } = createExecutorFixture();
    const state = await snapshot();
    const request = (path: string): EngineCommand => ({
      type: 'requestPlannerRun',
      specPaths: [path],
      specSHAs: { [path]: 'x' },
    });
    const results = [];
    for (const path of ['a.md', 'b.md', 'c.md']) results.push(await executor.execute(request(path), state));
    expect(started).toHaveLength(1);
    expect(results[1]).toEqual([
      expect.objectContaining({
        type: 'commandRejected',
        kind: 'duplicate',
        reason: 'planner already running',
      }),
    ]);
    expect(results[2]).toEqual([expect.objectContaining({ kind: 'duplicate' })]);
  });

  it('rejects a planner request while a planner run is in the store', async () => {
    const { executor, snapshot, started } = createExecutorFixture();
    const state = await snapshot({ agentRuns: { p: buildPlannerRun({ sessionID: 'p' }) } });
    const events = await executor.execute(
      { type: 'requestPlannerRun', specPaths: ['a.md'], specSHAs: {} },
      state,
    );
    expect(events).toEqual([expect.objectContaining({ kind: 'duplicate' })]);
    expect(started).toEqual([]);
  });

  it('while a planner waits for answers, only its own resume plans', async () => {
    const { provider, executor, snapshot, started } = createExecutorFixture();
    provider.control.addWorkItem({
      title: 'Planner questions',
      status: 'waiting-for-input',
      labels: ['task:questions'],
    });
    const waiting = {
      workItemID: '1',
      role: 'planner' as const,
      sessionID: 'p-asked',
      sessionNumber: 1,
      revisionID: null,
      questions: ['Expire entries?'],
      session: { runtime: 'scripted', agentSessionID: 'p-asked', worktree: null, stateDir: '/s' },
      askedAt: 1,
      answers: null,
      specSHAs: { 'a.md': 'x' },
    };
    const state = await snapshot({ waitingForInput: { '1': waiting } });
    const fresh = await executor.execute(
      { type: 'requestPlannerRun', specPaths: ['a.md'], specSHAs: { 'a.md': 'y' } },
      state,
    );
    expect(fresh).toEqual([
      expect.objectContaining({ kind: 'duplicate', reason: 'a planner waits for answers on #1' }),
    ]);
    const otherSession = await executor.execute(
      {
        type: 'requestPlannerRun',
        specPaths: ['a.md'],
        specSHAs: { 'a.md': 'x' },
        resume: { waiting: { ...waiting, sessionID: 'p-other' }, answers: 'Yes.' },
      },
      state,
    );
    expect(otherSession).toEqual([expect.objectContaining({ kind: 'invalid' })]);
    expect(started).toEqual([]);
    await executor.execute(
      {
        type: 'requestPlannerRun',
        specPaths: ['a.md'],
        specSHAs: { 'a.md': 'x' },
        resume: { waiting, answers: 'Yes.' },
      },
      state,
    );
    expect(started.map((run) => run.command)).toEqual([
      expect.objectContaining({ resume: { waiting, answers: 'Yes.' } }),
    ]);
  });

  it('guards implementor requests: refinement items, items not ready, items with a run of any role', async () => {
    const { provider, executor, snapshot, started } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'Question', status: 'ready', labels: ['task:refinement'] });
    provider.control.addWorkItem({ title: 'Pending', status: 'pending' });
    provider.control.addWorkItem({ title: 'Reviewed', status: 'ready' });
    provider.control.addWorkItem({ title: 'Free', status: 'ready' });
    const state = await snapshot({
      agentRuns: { r: buildReviewerRun({ sessionID: 'r', workItemID: '3' }) },
    });
    const request = (workItemID: string) =>
      executor.execute({ type: 'requestImplementorRun', workItemID }, state);
    expect(await request('1')).toEqual([
      expect.objectContaining({ kind: 'invalid', reason: expect.stringContaining('refinement') }),
    ]);
    expect(await request('2')).toEqual([
      expect.objectContaining({ kind: 'invalid', reason: '#2 is pending, not ready' }),
    ]);
    expect(await request('3')).toEqual([expect.objectContaining({ kind: 'duplicate' })]);
    expect(await request('4')).toEqual([]);
    expect(await request('4')).toEqual([
      expect.objectContaining({ kind: 'duplicate', reason: 'agent already running for work item' }),
    ]);
    expect(started.map((s) => s.command)).toEqual([{ type: 'requestImplementorRun', workItemID: '4' }]);
  });

  it('guards automatic refinements: an item in needs-refinement, or a pending task:refinement item', async () => {
    const { provider, executor, snapshot, started } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'Parked', status: 'needs-refinement' });
    provider.control.addWorkItem({ title: 'Vague', status: 'pending', labels: ['task:refinement'] });
    provider.control.addWorkItem({ title: 'Pending task', status: 'pending' });
    provider.control.addWorkItem({ title: 'Ready task', status: 'ready' });
    provider.control.addWorkItem({
      title: 'Proposal',
      status: 'needs-refinement',
      labels: ['task:proposal'],
    });
    const state = await snapshot();
    const refine = (workItemID: string) =>
      executor.execute({ type: 'requestImplementorRun', workItemID, mode: 'refine' }, state);
    expect(await refine('1')).toEqual([]);
    expect(await refine('2')).toEqual([]);
    for (const id of ['3', '4', '5'])
      expect(await refine(id)).toEqual([
        expect.objectContaining({ kind: 'invalid', reason: expect.stringContaining('refined on its own') }),
      ]);
    expect(started.map((s) => s.command)).toEqual([
      { type: 'requestImplementorRun', workItemID: '1', mode: 'refine' },
      { type: 'requestImplementorRun', workItemID: '2', mode: 'refine' },
    ]);
  });

  it('guards reviewer requests: the item must be in review and the revision known', async () => {
    const { provider, executor, snapshot, started } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'A', status: 'review' });
    provider.control.addWorkItem({ title: 'B', status: 'ready' });
    const state = await snapshot();
    expect(
      await executor.execute({ type: 'requestReviewerRun', workItemID: '1', revisionID: '77' }, state),
    ).toEqual([expect.objectContaining({ kind: 'invalid', reason: 'revision 77 is not known' })]);
    expect(
      await executor.execute({ type: 'requestReviewerRun', workItemID: '2', revisionID: '77' }, state),
    ).toEqual([expect.objectContaining({ kind: 'invalid', reason: '#2 is ready, not in review' })]);
    expect(started).toEqual([]);
  });

  it('queues requests beyond the concurrency cap', async () => {
    const { provider, executor, snapshot, started } = createExecutorFixture({ maxConcurrentAgents: 1 });
    provider.control.addWorkItem({ title: 'A', status: 'ready' });
    provider.control.addWorkItem({ title: 'B', status: 'ready' });
    const state = await snapshot();
    await executor.execute({ type: 'requestImplementorRun', workItemID: '1' }, state);
    const queued = await executor.execute({ type: 'requestImplementorRun', workItemID: '2' }, state);
    expect(queued).toEqual([expect.objectContaining({ type: 'dispatchQueued', reason: 'capacity' })]);
    expect(started).toHaveLength(1);
  });
});
