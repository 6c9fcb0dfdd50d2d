import { describe, expect, it } from 'vitest';
import {
  createExecutorFixture,
  EXECUTOR_TEST_PATCH,
} from '../../../test/support/engine/create-executor-fixture.ts';
import type { EngineEvent } from '../../domain/index.ts';

const types = (events: EngineEvent[]) => events.map((event) => event.type);

describe('command executor: revision writes', () => {
  it('creates a revision from a patch, and updates, comments and reviews it', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'A', status: 'in-progress' });
    const created = await executor.execute(
      {
        type: 'createRevisionFromPatch',
        workItemID: '1',
        patch: EXECUTOR_TEST_PATCH,
        branchName: 'flotilla/1',
        body: 'Closes #1',
      },
      await snapshot(),
    );
    expect(created).toEqual([
      expect.objectContaining({ type: 'revisionChanged', revisionID: '2', oldPipelineStatus: null }),
    ]);
    const state = await snapshot();
    expect(
      await executor.execute({ type: 'updateRevision', revisionID: '2', body: 'new body' }, state),
    ).toEqual([]);
    expect(
      await executor.execute({ type: 'commentOnRevision', revisionID: '2', body: 'note' }, state),
    ).toEqual([]);
    expect(provider.control.revisionComments('2')).toEqual(['note']);
    const review = { verdict: 'approve' as const, summary: 'fine', comments: [] };
    const posted = await executor.execute({ type: 'postRevisionReview', revisionID: '2', review }, state);
    expect(posted).toEqual([
      expect.objectContaining({
        type: 'revisionChanged',
        revision: expect.objectContaining({ reviewID: expect.any(String) }),
      }),
    ]);
    const failed = await executor.execute({ type: 'updateRevisionReview', revisionID: '2', review }, state);
    expect(failed).toEqual([
      expect.objectContaining({ type: 'commandFailed', error: 'revision 2 has no review to update' }),
    ]);
    const updated = await executor.execute(
      { type: 'updateRevisionReview', revisionID: '2', review },
      await snapshot(),
    );
    expect(types(updated)).toEqual(['revisionChanged']);
  });
});
