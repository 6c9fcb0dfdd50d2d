import { describe, expect, it } from 'vitest';
import {
  buildApplyImplementorResult,
  createExecutorFixtureWithItemInProgress,
  EXECUTOR_TEST_PATCH,
  eventTypes,
} from '../../../test/support/engine/create-executor-fixture.ts';
import { PATCH_CONFLICT_MARKER } from '../../../test/support/in-memory-provider/check-patch-applies.ts';

describe('command executor: applyImplementorResult', () => {
  it('completed: creates the revision, keeps the summary, moves the item to review with the link', async () => {
    const { provider, executor, snapshot } = createExecutorFixtureWithItemInProgress();
    const events = await executor.execute(
      buildApplyImplementorResult('completed', EXECUTOR_TEST_PATCH),
      await snapshot(),
    );
    expect(eventTypes(events)).toEqual(['revisionChanged', 'workItemChanged']);
    expect(events[1]).toEqual(
      expect.objectContaining({
        newStatus: 'review',
        workItem: expect.objectContaining({ linkedRevision: '2' }),
      }),
    );
    const revision = await provider.revisionReader.getRevision('2');
    expect(revision?.body).toBe('Closes #1\n\nSummary of completed');
    expect(provider.control.workItemComments('1')).toEqual([
      'Implementor completed revision 2:\n\nSummary of completed',
    ]);
  });

  it('completed without a patch parks the item as blocked and explains why', async () => {
    const { provider, executor, snapshot } = createExecutorFixtureWithItemInProgress();
    const events = await executor.execute(buildApplyImplementorResult('completed', ''), await snapshot());
    expect(eventTypes(events)).toEqual(['commandFailed', 'workItemChanged']);
    expect(events[0]).toEqual(
      expect.objectContaining({ error: expect.stringContaining('carries no patch') }),
    );
    expect((await provider.workItemReader.getWorkItem('1'))?.status).toBe('blocked');
  });

  it('a patch that does not apply parks the item as blocked and explains why', async () => {
    const { provider, executor, snapshot } = createExecutorFixtureWithItemInProgress();
    const events = await executor.execute(
      buildApplyImplementorResult('completed', `${EXECUTOR_TEST_PATCH}${PATCH_CONFLICT_MARKER}`),
      await snapshot(),
    );
    expect(eventTypes(events)).toEqual(['commandFailed', 'workItemChanged']);
    expect((await provider.workItemReader.getWorkItem('1'))?.status).toBe('blocked');
    expect(provider.control.workItemComments('1')[0]).toContain('could not create a revision');
    expect(provider.control.revisionRecords()).toEqual([]);
  });

  it.each([
    ['blocked', 'blocked', 'Implementor reported a blocker'],
    ['validation-failure', 'needs-refinement', 'Implementor could not validate its change'],
  ] as const)('%s: writes the summary and moves the item to %s', async (outcome, status, heading) => {
    const { provider, executor, snapshot } = createExecutorFixtureWithItemInProgress();
    const events = await executor.execute(buildApplyImplementorResult(outcome, null), await snapshot());
    expect(events).toEqual([expect.objectContaining({ type: 'workItemChanged', newStatus: status })]);
    expect(provider.control.workItemComments('1')).toEqual([`${heading}:\n\nSummary of ${outcome}`]);
  });
});
