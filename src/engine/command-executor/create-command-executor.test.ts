import { describe, expect, it } from 'vitest';
import { createExecutorFixture } from '../../../test/support/engine/create-executor-fixture.ts';
import type { EngineCommand } from '../../domain/index.ts';

describe('command executor: guards, policy, failures', () => {
  it('rejects a transition the table does not allow for its cause, and writes nothing', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'A', status: 'pending' });
    const command: EngineCommand = {
      type: 'transitionWorkItemStatus',
      workItemID: '1',
      newStatus: 'approved',
      cause: 'readiness',
    };
    const events = await executor.execute(command, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'commandRejected',
        kind: 'invalid',
        reason: '#1 cannot move pending → approved (readiness)',
      }),
    ]);
    expect(provider.control.calls('transitionStatus')).toEqual([]);
  });

  it('rejects commands on unknown work items', async () => {
    const { executor, snapshot } = createExecutorFixture();
    const events = await executor.execute(
      { type: 'transitionWorkItemStatus', workItemID: '42', newStatus: 'ready', cause: 'user' },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({ type: 'commandRejected', reason: 'work item #42 is not known' }),
    ]);
  });

  it('applies the policy after the guards and reports its reason', async () => {
    const { provider, executor, snapshot } = createExecutorFixture({
      policy: (command) =>
        command.type === 'createWorkItem' ? { allowed: false, reason: 'read-only day' } : { allowed: true },
    });
    const events = await executor.execute(
      { type: 'createWorkItem', title: 'T', body: 'B', labels: [], blockedBy: [] },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({ type: 'commandRejected', kind: 'policy', reason: 'read-only day' }),
    ]);
    expect(provider.control.workItemRecords()).toEqual([]);
  });

  it('turns a provider error into commandFailed with its message', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'A', status: 'pending' });
    provider.control.failNext('transitionStatus', { error: new Error('tracker is down') });
    const events = await executor.execute(
      { type: 'transitionWorkItemStatus', workItemID: '1', newStatus: 'ready', cause: 'readiness' },
      await snapshot(),
    );
    expect(events).toEqual([expect.objectContaining({ type: 'commandFailed', error: 'tracker is down' })]);
  });

  it('runs every write inside the fence; a refused fence fails the command and writes nothing', async () => {
    let leading = true;
    const fenced: string[] = [];
    const { provider, executor, snapshot } = createExecutorFixture({
      fence: async (write) => {
        if (!leading) throw new Error('the lease is lost: the write was not made');
        fenced.push('in');
        const value = await write();
        fenced.push('out');
        return value;
      },
    });
    provider.control.addWorkItem({ title: 'A', status: 'pending' });
    const command: EngineCommand = {
      type: 'transitionWorkItemStatus',
      workItemID: '1',
      newStatus: 'ready',
      cause: 'readiness',
    };
    expect(await executor.execute(command, await snapshot())).toEqual([
      expect.objectContaining({ type: 'workItemChanged' }),
    ]);
    expect(fenced).toEqual(['in', 'out']);
    expect(provider.control.calls('transitionStatus')).toHaveLength(1);

    leading = false;
    const refused = await executor.execute(
      { type: 'commentOnWorkItem', workItemID: '1', body: 'late' },
      await snapshot(),
    );
    expect(refused).toEqual([
      expect.objectContaining({ type: 'commandFailed', error: 'the lease is lost: the write was not made' }),
    ]);
    expect(provider.control.calls('addComment')).toEqual([]);
  });
});
