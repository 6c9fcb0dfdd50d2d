import { describe, expect, it } from 'vitest';
import { createExecutorFixture } from '../../../test/support/engine/create-executor-fixture.ts';
import type { InvestigationReport, RefinementReport } from '../../domain/index.ts';

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

  it('makes a task:refinement item a task, and records the body it wrote as refined (issue #29)', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'Vague', body: 'Do something.', labels: ['task:refinement'] });
    const events = await executor.execute(
      { type: 'applyModeResult', workItemID: '1', sessionID: 's-1', report: { ...REFINEMENT } },
      await snapshot(),
    );
    const written = await provider.workItemReader.getWorkItem('1');
    expect(written).toMatchObject({ kind: 'task', status: 'pending' });
    // The store sees the same item the next poll reads: no change to react to.
    expect(events[0]).toMatchObject({ workItem: { kind: 'task', bodyHash: written?.bodyHash } });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'modeResultApplied', bodyHash: written?.bodyHash }),
    );
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

const INVESTIGATION: InvestigationReport = {
  mode: 'investigate',
  summary: 'greet() assumes a name.',
  rootCause: 'greet() reads name.trim() on an undefined name',
  evidence: ['TypeError in greet()'],
  files: ['src/greet.js'],
  fixes: [
    {
      tempID: 'default',
      title: 'Default the name',
      body: 'greet() with no name greets the world.',
      labels: ['task:implement', 'complexity:trivial'],
      blockedBy: [],
    },
    {
      tempID: 'test',
      title: 'Test greet() without a name',
      body: 'A regression test.',
      labels: ['task:implement', 'complexity:trivial'],
      blockedBy: ['default'],
    },
  ],
};

describe('command executor: applyModeResult (investigation)', () => {
  it('creates the fix items with their blocked-by links, posts the report on the bug and closes it', async () => {
    const { provider, executor, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({
      title: 'greet() crashes',
      status: 'in-progress',
      labels: ['task:investigate'],
    });
    const events = await executor.execute(
      { type: 'applyModeResult', workItemID: '1', sessionID: 's-1', report: INVESTIGATION },
      await snapshot(),
    );
    const items = await provider.workItemReader.listWorkItems();
    const first = items.find((item) => item.title === 'Default the name');
    const second = items.find((item) => item.title === 'Test greet() without a name');
    expect(first?.blockedBy).toEqual([]);
    // The tempID link is kept as a link between the created items.
    expect(second?.blockedBy).toEqual([first?.id]);
    expect(events.find((event) => event.type === 'modeResultApplied')).toMatchObject({
      workItemID: '1',
      createdIDs: [first?.id, second?.id],
    });
    expect((await provider.workItemReader.getWorkItem('1'))?.status).toBe('closed');
    const comments = (await provider.workItemReader.listComments?.('1')) ?? [];
    const report = comments.map((comment) => comment.body).join('\n');
    expect(report).toContain('### Root cause');
    expect(report).toContain(INVESTIGATION.rootCause);
    expect(report).toContain(`Fix items: #${first?.id}, #${second?.id}`);
  });
});
