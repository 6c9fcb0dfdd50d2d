import { describe, expect, it } from 'vitest';
import { createExecutorFixture } from '../../../test/support/engine/create-executor-fixture.ts';
import { buildImplementorRun, buildReviewerRun } from '../../../test/support/shared/builders/index.ts';

describe('command executor: run cancels', () => {
  it('cancels the active run of the right role, reaching the adapter once the session exists', async () => {
    const { executor, snapshot, registry, adapter, cancelled } = createExecutorFixture();
    registry.register('impl-1', adapter);
    const state = await snapshot({
      agentRuns: {
        'impl-1': buildImplementorRun({ sessionID: 'impl-1', workItemID: '5' }),
        done: buildReviewerRun({ sessionID: 'done', workItemID: '5', status: 'completed' }),
      },
    });
    expect(await executor.execute({ type: 'cancelReviewerRun', workItemID: '5' }, state)).toEqual([]);
    expect(registry.cancelReasonOf('done')).toBeNull();
    await executor.execute({ type: 'cancelImplementorRun', workItemID: '5' }, state);
    expect(registry.cancelReasonOf('impl-1')).toBe('cancelled');
    expect(cancelled).toEqual([]);
    registry.markStarted('impl-1', {
      push() {},
      end() {},
      subscribe: () => [][Symbol.iterator]() as never,
      ended: false,
    });
    expect(cancelled).toEqual(['impl-1']);
  });
});
