import { describe, expect, it } from 'vitest';
import { createExecutorFixture } from '../../../test/support/engine/create-executor-fixture.ts';
import type { EngineEvent } from '../../domain/index.ts';

const types = (events: EngineEvent[]) => events.map((event) => event.type);

describe('command executor: applyPlannerResult', () => {
  const create = (tempID: string, blockedBy: string[] = [], labels: string[] = []) => ({
    tempID,
    title: `Title ${tempID}`,
    body: `Body ${tempID}`,
    labels,
    blockedBy,
  });

  it('creates blockers first, resolves tempIDs (also to later creates), then closes and updates', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'Existing', status: 'pending' });
    provider.control.addWorkItem({ title: 'Stale', status: 'pending' });
    const events = await executor.execute(
      {
        type: 'applyPlannerResult',
        result: {
          role: 'planner',
          create: [create('second', ['first', '1']), create('first', [], ['priority:high'])],
          close: ['2'],
          update: [{ workItemID: '1', body: 'Rewritten', labels: null }],
        },
      },
      await snapshot(),
    );
    expect(types(events)).toEqual(['workItemChanged', 'workItemChanged', 'workItemChanged']);
    const [first, second, closed] = events as Extract<EngineEvent, { type: 'workItemChanged' }>[];
    expect(first?.workItem?.title).toBe('Title first');
    expect(second?.workItem?.blockedBy).toEqual([first?.workItemID, '1']);
    expect(closed).toEqual(
      expect.objectContaining({ workItemID: '2', newStatus: 'closed', oldStatus: 'pending' }),
    );
    expect(await provider.workItemReader.getWorkItemBody('1')).toBe('Rewritten');
  });

  it("ends with planApplied for a planner run's result: what it created and updated, and its summary", async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'Existing', status: 'pending' });
    const result = {
      role: 'planner' as const,
      create: [create('a'), create('b', ['a'])],
      close: [],
      update: [{ workItemID: '1', body: 'Rewritten', labels: null }],
      summary: '  The store first, then its API.  ',
    };
    const events = await executor.execute(
      { type: 'applyPlannerResult', result, sessionID: 'p-1' },
      await snapshot(),
    );
    expect(types(events)).toEqual(['workItemChanged', 'workItemChanged', 'planApplied']);
    expect(events.at(-1)).toEqual({
      type: 'planApplied',
      sessionID: 'p-1',
      summary: 'The store first, then its API.',
      created: [
        { workItemID: '2', title: 'Title a' },
        { workItemID: '3', title: 'Title b' },
      ],
      updatedIDs: ['1'],
      at: expect.any(Number),
    });
    // No run's result (an investigation's fix items), or nothing written: no planApplied.
    const unowned = await executor.execute({ type: 'applyPlannerResult', result }, await snapshot());
    expect(types(unowned)).not.toContain('planApplied');
    const empty = await executor.execute(
      {
        type: 'applyPlannerResult',
        result: { role: 'planner', create: [], close: [], update: [], summary: null },
        sessionID: 'p-2',
      },
      await snapshot(),
    );
    expect(empty).toEqual([]);
  });

  it.each([
    ['an unknown blocker', { create: [create('a', ['99'])], close: [], update: [] }, "blocked by '99'"],
    [
      'a dependency cycle',
      { create: [create('a', ['b']), create('b', ['a'])], close: [], update: [] },
      'cycle',
    ],
    [
      'a close of an unknown item',
      { create: [create('a')], close: ['99'], update: [] },
      'work item #99 is not known',
    ],
    [
      'an update of an unknown item',
      { create: [create('a')], close: [], update: [{ workItemID: '98', body: null, labels: null }] },
      'work item #98 is not known',
    ],
  ])('writes nothing for %s and says why', async (_name, result, reason) => {
    const { provider, executor, snapshot } = createExecutorFixture();
    const events = await executor.execute(
      { type: 'applyPlannerResult', result: { role: 'planner', ...result } },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({ type: 'commandFailed', error: expect.stringContaining(reason) }),
    ]);
    expect(events[0]).toEqual(expect.objectContaining({ error: expect.stringContaining('nothing written') }));
    expect(provider.control.calls('createWorkItem')).toEqual([]);
  });

  it('keeps what was already written when a later write fails', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    const state = await snapshot();
    // The first create succeeds, the second fails.
    let calls = 0;
    const original = provider.workItemWriter.createWorkItem;
    provider.workItemWriter.createWorkItem = async (input) => {
      calls += 1;
      if (calls === 2) throw new Error('rate limited');
      return original(input);
    };
    const events = await executor.execute(
      {
        type: 'applyPlannerResult',
        result: { role: 'planner', create: [create('a'), create('b')], close: [], update: [] },
      },
      state,
    );
    expect(types(events)).toEqual(['workItemChanged', 'commandFailed']);
    expect(events[1]).toEqual(expect.objectContaining({ error: 'rate limited' }));
  });

  it("after a human's answers: applies the result, then closes the questions item saying what was created", async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({
      title: 'Planner questions: a.md',
      status: 'in-progress',
      labels: ['task:questions'],
    });
    const events = await executor.execute(
      {
        type: 'applyPlannerResult',
        result: { role: 'planner', create: [create('a'), create('b')], close: [], update: [] },
        questionsItemID: '1',
      },
      await snapshot(),
    );
    expect(types(events)).toEqual(['workItemChanged', 'workItemChanged', 'workItemChanged']);
    expect(events[2]).toEqual(
      expect.objectContaining({ workItemID: '1', oldStatus: 'in-progress', newStatus: 'closed' }),
    );
    const comments = (await provider.workItemReader.listComments?.('1')) ?? [];
    expect(comments.map((comment) => comment.body)).toEqual([
      expect.stringContaining('The planner finished with your answers: it created #2, #3.'),
    ]);
  });

  it('after answers, a rejected result still closes the questions item, naming the rejection', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({
      title: 'Planner questions: a.md',
      status: 'in-progress',
      labels: ['task:questions'],
    });
    const events = await executor.execute(
      {
        type: 'applyPlannerResult',
        result: { role: 'planner', create: [create('a', ['99'])], close: [], update: [] },
        questionsItemID: '1',
      },
      await snapshot(),
    );
    expect(types(events)).toEqual(['commandFailed']);
    expect((await provider.workItemReader.getWorkItem('1'))?.status).toBe('closed');
    const comments = (await provider.workItemReader.listComments?.('1')) ?? [];
    expect(comments[0]?.body).toContain('its result was rejected');
  });
});
