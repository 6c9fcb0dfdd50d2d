/**
 * `approval.plans: required` through the whole control plane (issue #29 §2): the real Claude Agent SDK binary
 * against the scripted model server (every role `scripted`), the local provider on SQLite and a real git
 * repository. The plan waits as a proposal (nothing created), survives a restart, is rejected with a reason
 * through `flotilla proposals reject` — the revising planner's prompt must carry the reason and the rejected
 * plan, else the server rejects the request and no revised proposal appears — and the revision, accepted with
 * `flotilla proposals accept`, creates its work items.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import type { Proposal } from '../../src/domain/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const REASON = 'Split the greeting and its validation into two items.';

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
  name: 'plan-proposals',
  onUnmetExpectation: 'reject',
  routes: [
    {
      // Only a plan-revision prompt has this section; the server rejects it unless it carries the reason.
      name: 'planner-revision',
      match: { systemIncludes: 'You are the planner', firstUserIncludes: '## Plan Revision' },
      steps: [
        {
          expect: { firstUserIncludes: [REASON, 'Greet everyone', 'docs/specs/greetings.md'] },
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

describe('plans that need approval, on the Claude runtime (real SDK)', () => {
  it('wait as a proposal across a restart; a rejection is revised with its reason; acceptance applies', async () => {
    const repo = await fixtures.scriptedDemoRepository(scenario, { approval: { plans: 'required' } });
    const { root } = repo;
    const first = await fixtures.startControlPlane(repo);
    const pendingOf = (proposals: Record<string, Proposal>) =>
      Object.values(proposals).find((candidate) => candidate.status === 'pending');

    await waitUntil(() => pendingOf(first.engine.getState().proposals) !== undefined, 90_000, 'a proposal');
    await first.engine.whenQuiescent();
    const proposal = pendingOf(first.engine.getState().proposals);
    if (proposal === undefined) throw new Error('no proposal');
    const titles = () => Object.values(first.engine.getState().workItems).map((item) => item.title);
    // Nothing applied: the only new item is the proposal's own.
    expect(titles()).toEqual(['Plan proposal: docs/specs/greetings.md']);
    expect(first.engine.getState().workItems[proposal.id]).toMatchObject({
      kind: 'proposal',
      status: 'waiting-for-input',
    });
    const comments = (await first.provider.workItemReader.listComments?.(proposal.id)) ?? [];
    expect(comments.map((comment) => comment.body).join('\n')).toContain('1. **Greet everyone** (`t0`)');
    await first.close();

    // A new process: the proposal is still pending and nothing re-plans.
    const second = await fixtures.startControlPlane(repo);
    await second.engine.whenQuiescent();
    const state = () => second.engine.getState();
    expect(pendingOf(state().proposals)).toMatchObject({ id: proposal.id, result: proposal.result });
    expect(second.persistence.listRuns().filter((run) => run.role === 'planner')).toHaveLength(1);

    const listed = await runFlotillaInProcess(root, ['proposals', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id: proposal.id, status: 'pending' }]);

    // Its item is never work for an implementor.
    const dispatched = await runFlotillaInProcess(root, ['work', 'dispatch', proposal.id]);
    expect(dispatched.code).toBe(1);
    expect(dispatched.stderr).toContain(`#${proposal.id} carries a plan proposal`);

    const rejected = await runFlotillaInProcess(root, [
      'proposals',
      'reject',
      proposal.id,
      '--comment',
      REASON,
    ]);
    expect(rejected.code).toBe(0);
    await waitUntil(
      () => pendingOf(state().proposals)?.revises === proposal.id,
      90_000,
      'the revised proposal',
    );
    await second.engine.whenQuiescent();
    const revised = pendingOf(state().proposals);
    if (revised === undefined) throw new Error('no revised proposal');
    expect(state().proposals[proposal.id]).toMatchObject({ status: 'rejected', reason: REASON });
    expect(state().workItems[proposal.id]?.status).toBe('closed');
    expect(revised.result.create.map((create) => create.title)).toEqual(['Greet', 'Validate names']);
    const plannerRuns = second.persistence.listRuns().filter((run) => run.role === 'planner');
    expect(plannerRuns.map((run) => run.status)).toEqual(['completed', 'completed']);

    const accepted = await runFlotillaInProcess(root, ['proposals', 'accept', `#${revised.id}`]);
    expect(accepted.code).toBe(0);
    await waitUntil(() => state().workItems[revised.id]?.status === 'closed', 90_000, 'the proposal closed');
    const items = Object.values(state().workItems).filter((item) => item.kind === 'task');
    expect(items.map((item) => item.title).sort()).toEqual(['Greet', 'Validate names']);
    const greet = items.find((item) => item.title === 'Greet');
    expect(items.find((item) => item.title === 'Validate names')?.blockedBy).toEqual([greet?.id]);
    expect(second.persistence.proposals.get(revised.id)).toMatchObject({ status: 'accepted' });
    const closing = (await second.provider.workItemReader.listComments?.(revised.id)) ?? [];
    expect(closing.at(-1)?.body).toContain('The plan was accepted and applied: it created #');

    // The history: the rejected one with its reason; a decided proposal cannot be decided again.
    const shown = await runFlotillaInProcess(root, ['proposals', 'show', proposal.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`Proposal #${proposal.id} · plan · rejected by `);
    expect(shown.stdout).toContain(`Reason: ${REASON}`);
    expect(shown.stdout).toContain('[t0] Greet everyone');
    const again = await runFlotillaInProcess(root, ['proposals', 'accept', proposal.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`proposal #${proposal.id} is rejected`);
  }, 300_000);
});
