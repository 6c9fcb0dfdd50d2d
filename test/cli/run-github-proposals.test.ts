/**
 * The plan gate on GitHub, end to end (issue #29 §2): `flotilla run` with `approval.plans: required` in a
 * clone of a repository on the fake GitHub (127.0.0.1), the planner through the real Claude Agent SDK
 * answered by the scripted model server. The plan becomes a `task:proposal` issue whose comment lists it
 * (and carries it in a hidden block); a drive-by user's `/accept` is not taken (GitHub's
 * `author_association` rules, as for answers); the owner's `/accept` applies it: the work item's issue is
 * created and the proposal's issue closed. In between, `flotilla run` is killed with SIGKILL: the proposal
 * survives it (a new process neither re-plans nor proposes again).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PROPOSAL_COMMENT_MARKER, parseProposalData } from '../../src/domain/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';
import {
  hostedDemoRepository,
  listIssues,
  startHostedFlotilla,
  waitFor,
} from '../support/github/hosted-flotilla-run.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const scenario: ScenarioSpec = {
  name: 'github-proposals',
  onUnmetExpectation: 'reject',
  routes: [
    {
      name: 'planner',
      match: { systemIncludes: 'You are the planner' },
      steps: [
        {
          structuredOutput: {
            role: 'planner',
            create: [
              {
                tempID: 'greet',
                title: 'Add greet(name)',
                body: 'Objective: greet.',
                labels: [],
                blockedBy: [],
              },
            ],
            close: [],
            update: [],
          },
        },
      ],
    },
    {
      name: 'implementor',
      match: { systemIncludes: 'You are the implementor' },
      steps: [{ structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'not in this test' } }],
    },
  ],
};

describe('flotilla run with provider github: a plan that needs approval', () => {
  it('posts the proposal on an issue, ignores a drive-by /accept, survives kill -9, applies the owner’s /accept', async () => {
    const hosted = await hostedDemoRepository(fixtures, { approval: { plans: 'required' } });
    const { fake } = hosted;
    const server = await fixtures.serve(scenario);
    const run = startHostedFlotilla(fixtures, hosted, server);
    const created = () =>
      fake.requests.filter(
        (request) =>
          request.method === 'POST' &&
          request.status === 201 &&
          request.path === '/repos/acme/widgets/issues',
      );
    const commentListings = () =>
      fake.requests.filter(
        (request) =>
          request.method === 'GET' && request.path.startsWith('/repos/acme/widgets/issues/1/comments'),
      );

    await waitFor(
      () =>
        created().length >= 1 && fake.issueComments(1).some((body) => body.includes(PROPOSAL_COMMENT_MARKER)),
      'the proposal comment',
      run.output,
    );
    expect(fake.human.issueLabels(1).sort()).toEqual(['status:waiting-for-input', 'task:proposal']);
    const posted = fake.issueComments(1).find((body) => body.includes(PROPOSAL_COMMENT_MARKER)) ?? '';
    expect(posted).toContain('1. **Add greet(name)** (`greet`)');
    expect(parseProposalData(posted)?.result.create.map((create) => create.title)).toEqual([
      'Add greet(name)',
    ]);

    // A drive-by user on a public repository accepts: polled, and not taken.
    fake.human.comment(1, '/accept', { login: 'stranger', association: 'NONE' });
    const polled = commentListings().length;
    await waitFor(() => commentListings().length >= polled + 2, 'two polls after the drive-by', run.output);
    expect(created()).toHaveLength(1);
    expect(fake.human.issueLabels(1)).toContain('status:waiting-for-input');

    // kill -9 while the proposal waits: a new process finds it pending (it polls #1's comments again) and
    // neither plans again nor proposes a second time.
    run.child.kill('SIGKILL');
    await run.exited;
    const listedBefore = commentListings().length;
    const restarted = startHostedFlotilla(fixtures, hosted, server);
    await waitFor(
      () => commentListings().length >= listedBefore + 2,
      'the restarted run to poll the proposal',
      restarted.output,
    );
    expect(created()).toHaveLength(1);

    // The owner accepts: the plan is applied, the proposal's issue closed.
    fake.human.comment(1, '/accept');
    await waitFor(() => created().length >= 2, 'the planned issue', restarted.output);
    await waitFor(
      () =>
        fake
          .issueComments(1)
          .some((body) => body.includes('The plan was accepted and applied: it created #2')),
      'the proposal to close',
      restarted.output,
    );
    // The closing comment comes just before the close.
    await waitFor(
      async () => (await listIssues(fake)).find((issue) => issue.number === 1)?.state === 'closed',
      'the proposal issue to close',
      restarted.output,
    );
    const issues = await listIssues(fake);
    const byNumber = new Map(issues.map((issue) => [issue.number, issue]));
    expect(byNumber.get(1)?.state).toBe('closed');
    expect(byNumber.get(2)?.title).toBe('Add greet(name)');
    expect(server.requestsFor('planner')).toHaveLength(1);
    expect(created()).toHaveLength(2);

    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  }, 300_000);
});
