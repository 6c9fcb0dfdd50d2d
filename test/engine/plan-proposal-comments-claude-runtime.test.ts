/**
 * A human's comment on a plan proposal revises it (issue #29: `plan-revision` when "a human rejects or
 * comments on a plan"), on the local provider through the whole control plane: the real Claude Agent SDK
 * binary against the scripted model server, SQLite and a real git repository. `flotilla proposals comment`
 * — whose text starts with `/accept`, and still is feedback — has the planner revise the plan (its prompt
 * must carry the feedback and the previous plan, else the server rejects the request and no revision
 * appears); a plain `flotilla work comment` on the revised proposal's item does the same again; nothing is
 * created until `flotilla proposals accept`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import type { Proposal } from '../../src/domain/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const FEEDBACK = '/accept is premature: split the greeting and its validation';
const SECOND = 'Name the validation item "Validate names (trimmed)"';

function plan(titles: string[]) {
  return {
    role: 'planner',
    create: titles.map((title, index) => ({
      tempID: `t${index}`,
      title,
      body: `Objective: ${title}.`,
      labels: [],
      blockedBy: index === 0 ? [] : ['t0'],
    })),
    close: [],
    update: [],
  };
}

const scenario: ScenarioSpec = {
  name: 'plan-proposal-comments',
  onUnmetExpectation: 'reject',
  routes: [
    {
      // The second revision: the plain comment, and the plan it revises (the first revision's).
      name: 'second-revision',
      match: { systemIncludes: 'You are the planner', firstUserIncludes: ['## Plan Revision', SECOND] },
      steps: [
        {
          expect: { firstUserIncludes: ['"title": "Validate names"', 'docs/specs/greetings.md'] },
          structuredOutput: plan(['Greet', 'Validate names (trimmed)']),
        },
      ],
    },
    {
      name: 'first-revision',
      match: { systemIncludes: 'You are the planner', firstUserIncludes: '## Plan Revision' },
      steps: [
        {
          expect: { firstUserIncludes: [FEEDBACK, '"title": "Greet everyone"'] },
          structuredOutput: plan(['Greet', 'Validate names']),
        },
      ],
    },
    {
      name: 'planner',
      match: { systemIncludes: 'You are the planner' },
      steps: [{ structuredOutput: plan(['Greet everyone']) }],
    },
    {
      name: 'implementor',
      match: { systemIncludes: 'You are the implementor' },
      steps: [{ structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'not in this test' } }],
    },
  ],
};

describe('a comment on a plan proposal, on the local provider (real SDK)', () => {
  it('`proposals comment` and a plain `work comment` each revise the plan; only accept applies', async () => {
    const repo = await fixtures.scriptedDemoRepository(scenario, { approval: { plans: 'required' } });
    const { root } = repo;
    const plane = await fixtures.startControlPlane(repo);
    const state = () => plane.engine.getState();
    const pending = () =>
      Object.values(state().proposals).find((candidate) => candidate.status === 'pending');
    const revisionOf = async (previous: Proposal) => {
      await waitUntil(() => pending()?.revises === previous.id, 90_000, `the revision of #${previous.id}`);
      await plane.engine.whenQuiescent();
      const revised = pending();
      if (revised === undefined) throw new Error('no revised proposal');
      return revised;
    };
    const tasks = () => Object.values(state().workItems).filter((item) => item.kind === 'task');

    await waitUntil(() => pending() !== undefined, 90_000, 'a proposal');
    await plane.engine.whenQuiescent();
    const first = pending();
    if (first === undefined) throw new Error('no proposal');

    const empty = await runFlotillaInProcess(root, ['proposals', 'comment', first.id, '  ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the comment is empty');

    const commented = await runFlotillaInProcess(root, ['proposals', 'comment', `#${first.id}`, FEEDBACK]);
    expect(commented.code).toBe(0);
    expect(commented.stdout).toContain(`commented on proposal #${first.id}`);
    const second = await revisionOf(first);
    expect(state().proposals[first.id]).toMatchObject({ status: 'rejected', reason: FEEDBACK });
    expect(state().workItems[first.id]?.status).toBe('closed');
    const closing = (await plane.provider.workItemReader.listComments?.(first.id)) ?? [];
    expect(closing.map((comment) => comment.body).join('\n')).toContain(`Revised on feedback from `);
    expect(second.result.create.map((create) => create.title)).toEqual(['Greet', 'Validate names']);
    expect(tasks()).toEqual([]);

    // A decided proposal takes no more comments.
    const late = await runFlotillaInProcess(root, ['proposals', 'comment', first.id, 'one more thing']);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain(`proposal #${first.id} is rejected`);

    // A human's plain comment on the item (as anyone would write one) is feedback too.
    const plain = await runFlotillaInProcess(root, ['work', 'comment', second.id, '--body', SECOND]);
    expect(plain.code).toBe(0);
    const third = await revisionOf(second);
    expect(state().proposals[second.id]).toMatchObject({ status: 'rejected', reason: SECOND });
    expect(third.result.create.map((create) => create.title)).toEqual(['Greet', 'Validate names (trimmed)']);
    expect(tasks()).toEqual([]);

    const accepted = await runFlotillaInProcess(root, ['proposals', 'accept', third.id]);
    expect(accepted.code).toBe(0);
    await waitUntil(() => state().workItems[third.id]?.status === 'closed', 90_000, 'the proposal closed');
    expect(
      tasks()
        .map((item) => item.title)
        .sort(),
    ).toEqual(['Greet', 'Validate names (trimmed)']);
    const plannerRuns = plane.persistence.listRuns().filter((run) => run.role === 'planner');
    expect(plannerRuns.map((run) => run.status)).toEqual(['completed', 'completed', 'completed']);
    await plane.close();
  }, 300_000);
});
