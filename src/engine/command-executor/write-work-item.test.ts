import { describe, expect, it } from 'vitest';
import { createExecutorFixture } from '../../../test/support/engine/create-executor-fixture.ts';

describe('command executor: work item writes', () => {
  it('transitions a work item and reports old and new status', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'A', status: 'pending' });
    const events = await executor.execute(
      { type: 'transitionWorkItemStatus', workItemID: '1', newStatus: 'ready', cause: 'readiness' },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({
        type: 'workItemChanged',
        workItemID: '1',
        oldStatus: 'pending',
        newStatus: 'ready',
      }),
    ]);
    expect((await provider.workItemReader.getWorkItem('1'))?.status).toBe('ready');
  });

  it('does nothing for a transition to the status the item already has', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'A', status: 'ready' });
    const events = await executor.execute(
      { type: 'transitionWorkItemStatus', workItemID: '1', newStatus: 'ready', cause: 'readiness' },
      await snapshot(),
    );
    expect(events).toEqual([]);
    expect(provider.control.calls('transitionStatus')).toEqual([]);
  });

  it('creates a work item and reports it as new', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    const events = await executor.execute(
      { type: 'createWorkItem', title: 'New', body: 'Body', labels: ['priority:high'], blockedBy: [] },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({
        type: 'workItemChanged',
        oldStatus: null,
        newStatus: 'pending',
        workItemID: '1',
      }),
    ]);
    expect(await provider.workItemReader.getWorkItemBody('1')).toBe('Body');
  });

  it('updates and comments without events', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'A', body: 'old' });
    const state = await snapshot();
    expect(
      await executor.execute({ type: 'updateWorkItem', workItemID: '1', body: 'new', labels: null }, state),
    ).toEqual([]);
    expect(await executor.execute({ type: 'commentOnWorkItem', workItemID: '1', body: 'hi' }, state)).toEqual(
      [],
    );
    expect(await provider.workItemReader.getWorkItemBody('1')).toBe('new');
    expect(provider.control.workItemComments('1')).toEqual(['hi']);
  });
});
