import { describe, expect, it } from 'vitest';
import {
  createExecutorFixture,
  EXECUTOR_TEST_PATCH,
} from '../../../test/support/engine/create-executor-fixture.ts';
import { createManualClock } from '../../../test/support/engine/create-manual-clock.ts';
import { buildRevisionFeedback } from '../../../test/support/shared/builders/index.ts';
import { replyToRevisionFeedback } from './reply-to-revision-feedback.ts';

const FEEDBACK = [
  buildRevisionFeedback({ id: 'review-3' }),
  buildRevisionFeedback({ id: 'line-4', kind: 'line-comment', state: null, path: 'a.txt', line: 1 }),
];

describe('replyToRevisionFeedback', () => {
  it("posts the answer through the provider's replyToFeedback and reports the feedback answered", async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'Feature', status: 'review' });
    provider.control.addRevision({ branchName: 'flotilla/1', workItemID: '1', patch: EXECUTOR_TEST_PATCH });
    const command = {
      type: 'replyToRevisionFeedback' as const,
      workItemID: '1',
      revisionID: '2',
      feedback: FEEDBACK,
      body: 'Trimmed it.',
    };
    const events = await executor.execute(command, await snapshot());
    expect(events).toEqual([
      {
        type: 'revisionFeedbackAnswered',
        workItemID: '1',
        feedbackIDs: ['review-3', 'line-4'],
        at: expect.any(Number),
      },
    ]);
    expect(provider.control.revisionRecord('2').feedbackReplies).toEqual([
      { feedbackIDs: ['review-3', 'line-4'], body: 'Trimmed it.' },
    ]);
  });

  it('fails, rather than drop the answer, when the provider cannot reply', async () => {
    const command = {
      type: 'replyToRevisionFeedback' as const,
      workItemID: '1',
      revisionID: '2',
      feedback: FEEDBACK,
      body: 'x',
    };
    const { provider } = createExecutorFixture();
    const { replyToFeedback: _none, ...withoutReplies } = provider.revisionWriter;
    await expect(
      replyToRevisionFeedback(command, { revisionWriter: withoutReplies, clock: createManualClock() }),
    ).rejects.toThrow('the provider cannot reply to feedback on revision 2');
  });
});
