import { describe, expect, it } from 'vitest';
import { createExecutorFixture } from '../../../test/support/engine/create-executor-fixture.ts';
import { buildPlannerRun } from '../../../test/support/shared/builders/index.ts';
import { openPlannerQuestionsItem } from './open-planner-questions-item.ts';

const specSHAs = { 'docs/specs/a.md': 'sha-a2', 'docs/specs/b.md': 'sha-b1' };
const run = { sessionID: 'p1', specPaths: Object.keys(specSHAs), specSHAs };

describe('openPlannerQuestionsItem', () => {
  it('creates a task:questions item, waiting for input, named after the specs being planned', async () => {
    const { provider, snapshot } = createExecutorFixture();
    // b is planned at the version given, so the planner is planning a only.
    const state = await snapshot({
      lastPlannedSHAs: { 'docs/specs/a.md': 'sha-a1', 'docs/specs/b.md': 'sha-b1' },
    });
    const opened = await openPlannerQuestionsItem(run, state, provider);
    const item = await provider.workItemReader.getWorkItem(opened.workItemID);
    expect(item).toMatchObject({
      title: 'Planner questions: docs/specs/a.md',
      kind: 'questions',
      status: 'waiting-for-input',
    });
    expect(await provider.workItemReader.getWorkItemBody(opened.workItemID)).toContain('- `docs/specs/a.md`');
    expect(opened.events).toEqual([
      expect.objectContaining({
        type: 'workItemChanged',
        workItemID: opened.workItemID,
        oldStatus: null,
        newStatus: 'waiting-for-input',
      }),
    ]);
  });

  it('a resumed planner that asks again keeps the questions item it has', async () => {
    const { provider, snapshot } = createExecutorFixture();
    provider.control.addWorkItem({ title: 'Planner questions: docs/specs/a.md', status: 'in-progress' });
    const state = await snapshot({
      agentRuns: { p1: buildPlannerRun({ sessionID: 'p1', questionsItemID: '1', sessionNumber: 2 }) },
    });
    expect(await openPlannerQuestionsItem(run, state, provider)).toEqual({ workItemID: '1', events: [] });
    expect(await provider.workItemReader.listWorkItems()).toHaveLength(1);
  });

  it('names at most three specs in the title', async () => {
    const { provider, snapshot } = createExecutorFixture();
    const many = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((name) => [`${name}.md`, `sha-${name}`]));
    const opened = await openPlannerQuestionsItem(
      { sessionID: 'p1', specPaths: Object.keys(many), specSHAs: many },
      await snapshot(),
      provider,
    );
    expect((await provider.workItemReader.getWorkItem(opened.workItemID))?.title).toBe(
      'Planner questions: a.md, b.md, c.md and 2 more',
    );
  });
});
