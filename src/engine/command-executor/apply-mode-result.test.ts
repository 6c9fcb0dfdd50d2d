import { describe, expect, it } from 'vitest';
import { createExecutorFixture } from '../../../test/support/engine/create-executor-fixture.ts';
import type { RefinementReport } from '../../domain/index.ts';

const REFINEMENT: RefinementReport = {
  mode: 'refine',
  summary: 'Made precise.',
  title: 'Greet the user by name',
  body: 'Print `hello, <name>`.',
  acceptanceCriteria: ['prints hello, Ada for Ada'],
  files: ['src/greet.js'],
  size: 'low',
  labels: ['priority:high'],
};

describe('command executor: applyModeResult (refinement)', () => {
  it('rewrites the title, body and labels of the refined item and sends it back to pending', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({
      title: 'Greeting thing',
      body: 'Make it greet somehow.',
      status: 'needs-refinement',
      labels: ['task:refine'],
    });
    const events = await executor.execute(
      { type: 'applyModeResult', workItemID: '1', sessionID: 's-1', report: { ...REFINEMENT } },
      await snapshot(),
    );
    // The store sees the new title with the new status.
    expect(events[0]).toMatchObject({
      type: 'workItemChanged',
      workItemID: '1',
      newStatus: 'pending',
      workItem: { title: 'Greet the user by name', complexity: 'low' },
    });
    expect(events.map((event) => event.type)).toContain('modeResultApplied');
    const item = await provider.workItemReader.getWorkItem('1');
    expect(item).toMatchObject({ title: 'Greet the user by name', status: 'pending', complexity: 'low' });
    expect(item?.mode).toBeUndefined();
    expect(await provider.workItemReader.getWorkItemBody('1')).toContain('## Acceptance criteria');
  });

  it('keeps the title when the refinement gives none (null)', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'Keep me', status: 'needs-refinement', labels: ['task:refine'] });
    await executor.execute(
      { type: 'applyModeResult', workItemID: '1', sessionID: 's-1', report: { ...REFINEMENT, title: null } },
      await snapshot(),
    );
    expect((await provider.workItemReader.getWorkItem('1'))?.title).toBe('Keep me');
  });
});
