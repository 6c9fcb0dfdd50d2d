import { describe, expect, it } from 'vitest';
import {
  createExecutorFixture,
  EXECUTOR_TEST_PATCH,
} from '../../../test/support/engine/create-executor-fixture.ts';
import type { EngineCommand } from '../../domain/index.ts';

describe('command executor: mergeRevision', () => {
  /** Item "1" in `status` with its open revision "2". */
  async function withRevision(status: 'approved' | 'review', options: { providerCanMerge?: boolean } = {}) {
    const context = createExecutorFixture(options);
    context.provider.control.addWorkItem({ title: 'A', status });
    context.provider.control.addRevision({
      branchName: 'flotilla/1',
      workItemID: '1',
      patch: EXECUTOR_TEST_PATCH,
    });
    return context;
  }
  const merge: EngineCommand = { type: 'mergeRevision', workItemID: '1', revisionID: '2' };

  it('merges, then reports the item closed and the revision gone, and asks for a poll', async () => {
    const { provider, executor, snapshot, polls } = await withRevision('approved');
    const events = await executor.execute(merge, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'workItemChanged',
        workItemID: '1',
        oldStatus: 'approved',
        newStatus: 'closed',
        workItem: expect.objectContaining({ status: 'closed' }),
      }),
      {
        type: 'revisionChanged',
        revisionID: '2',
        workItemID: '1',
        revision: null,
        oldPipelineStatus: 'pending',
        newPipelineStatus: null,
      },
    ]);
    expect(provider.control.revisionRecord('2').state).toBe('merged');
    expect((await provider.workItemReader.getWorkItem('1'))?.status).toBe('closed');
    expect(polls()).toBe(1);
  });

  it('rejects (invalid) an item that is not approved, and merges nothing', async () => {
    const { provider, executor, snapshot, polls } = await withRevision('review');
    const events = await executor.execute(merge, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'commandRejected',
        kind: 'invalid',
        reason: '#1 is review, not approved',
      }),
    ]);
    expect(provider.control.calls('mergeRevision')).toEqual([]);
    expect(polls()).toBe(0);
  });

  it('rejects (invalid) a revision that is no longer open', async () => {
    const { provider, executor, snapshot } = await withRevision('approved');
    provider.control.closeRevision('2');
    const events = await executor.execute(merge, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'commandRejected',
        kind: 'invalid',
        reason: 'revision 2 is not the open revision of #1',
      }),
    ]);
    expect(provider.control.calls('mergeRevision')).toEqual([]);
  });

  it('rejects (invalid) when the provider cannot merge, saying where to merge', async () => {
    const { provider, executor, snapshot } = await withRevision('approved', { providerCanMerge: false });
    const events = await executor.execute(merge, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'commandRejected',
        kind: 'invalid',
        reason: 'this provider cannot merge; merge the revision in the tracker',
      }),
    ]);
    expect(provider.control.revisionRecord('2').state).toBe('open');
  });

  it('turns a failed merge into commandFailed with its message and reports nothing else', async () => {
    const { provider, executor, snapshot, polls } = await withRevision('approved');
    provider.control.failNext('mergeRevision', { error: 'main is checked out with uncommitted changes' });
    const events = await executor.execute(merge, await snapshot());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'commandFailed',
        command: merge,
        error: 'main is checked out with uncommitted changes',
      }),
    ]);
    expect(provider.control.revisionRecord('2').state).toBe('open');
    expect(polls()).toBe(0);
  });
});
