import { describe, expect, it } from 'vitest';
import {
  buildApplyImplementorResult,
  createExecutorFixtureWithItemInProgress,
  EXECUTOR_TEST_PATCH,
  eventTypes,
} from '../../../test/support/engine/create-executor-fixture.ts';

describe('command executor: applyReviewerResult', () => {
  it('posts the first review, replaces later ones, and moves the item by verdict', async () => {
    const { provider, executor, snapshot } = createExecutorFixtureWithItemInProgress();
    await executor.execute(buildApplyImplementorResult('completed', EXECUTOR_TEST_PATCH), await snapshot());
    provider.control.editWorkItem('1', { status: 'review' });
    const needsChanges = {
      type: 'applyReviewerResult' as const,
      workItemID: '1',
      revisionID: '2',
      review: {
        verdict: 'needs-changes' as const,
        summary: 'Add a test',
        comments: [{ path: 'a.txt', line: 1, body: 'why?' }],
      },
      needsChangesStatus: 'pending' as const,
    };
    const first = await executor.execute(needsChanges, await snapshot());
    expect(eventTypes(first)).toEqual(['workItemChanged', 'revisionChanged']);
    expect(first[0]).toEqual(expect.objectContaining({ newStatus: 'pending' }));
    expect(provider.control.calls('postReview')).toHaveLength(1);

    provider.control.editWorkItem('1', { status: 'review' });
    const approve = {
      ...needsChanges,
      review: { verdict: 'approve' as const, summary: 'Good', comments: [] },
    };
    const second = await executor.execute(approve, await snapshot());
    expect(second[0]).toEqual(expect.objectContaining({ newStatus: 'approved' }));
    expect(provider.control.calls('updateReview')).toHaveLength(1);
    expect(provider.control.workItemComments('1').slice(-1)[0]).toBe('Reviewer approved revision 2:\n\nGood');
  });

  it('fails clearly when the reviewed revision is unknown', async () => {
    const { executor, snapshot } = createExecutorFixtureWithItemInProgress();
    const events = await executor.execute(
      {
        type: 'applyReviewerResult',
        workItemID: '1',
        revisionID: '50',
        review: { verdict: 'approve', summary: '', comments: [] },
        needsChangesStatus: 'pending',
      },
      await snapshot(),
    );
    expect(events).toEqual([
      expect.objectContaining({ type: 'commandFailed', error: 'revision 50 is not known' }),
    ]);
  });
});
