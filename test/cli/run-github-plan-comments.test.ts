/**
 * A comment on a plan proposal revises it on GitHub, end to end (issue #29: `plan-revision` when "a human
 * rejects or comments on a plan"): `flotilla run` with `approval.plans: required` in a clone of a repository
 * on the fake GitHub (127.0.0.1), the planner through the real Claude Agent SDK answered by the scripted model
 * server. A drive-by user's and a bot's plain comments on the proposal's issue change nothing (GitHub's
 * `author_association` rules, as for answers); the owner's plain comment closes the proposal and starts a
 * plan-revision whose first request must carry the comment and the previous plan (the server refuses it
 * otherwise); its new proposal survives `kill -9` without a second revision from the same comment, and the
 * owner's `/accept` creates its items.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PROPOSAL_COMMENT_MARKER } from '../../src/domain/index.ts';
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

const FEEDBACK = 'Split the parser into its own item';
const FIRST_TITLE = 'Add greet(name) with its argument parser';

const plan = (titles: string[]) => ({
  structuredOutput: {
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
  },
});

const scenario: ScenarioSpec = {
  name: 'github-plan-comments',
  onUnmetExpectation: 'reject',
  routes: [
    {
      // The plan-revision run: its prompt opens with the owner's comment and the plan it revises.
      name: 'revised-planner',
      match: { systemIncludes: 'You are the planner', firstUserIncludes: '## Plan Revision' },
      steps: [
        {
          expect: { firstUserIncludes: [FEEDBACK, `"title": "${FIRST_TITLE}"`] },
          ...plan(['Parse the name argument', 'Add greet(name)']),
        },
      ],
    },
    {
      name: 'planner',
      match: { systemIncludes: 'You are the planner' },
      steps: [plan([FIRST_TITLE])],
    },
    {
      name: 'implementor',
      match: { systemIncludes: 'You are the implementor' },
      steps: [{ structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'not in this test' } }],
    },
  ],
};

describe('flotilla run with provider github: a comment on a plan proposal', () => {
  it('revises the plan on the owner’s comment only, once across kill -9; /accept applies the revision', async () => {
    const hosted = await hostedDemoRepository(fixtures, { approval: { plans: 'required' } });
    const { fake } = hosted;
    const server = await fixtures.serve(scenario);
    const run = startHostedFlotilla(fixtures, hosted, server);
    // An issue not created yet has no comments (the fake answers 404 for it).
    const commentsOf = (issue: number) => {
      try {
        return fake.issueComments(issue);
      } catch {
        return [];
      }
    };
    const proposalOn = (issue: number) =>
      commentsOf(issue).some((body) => body.includes(PROPOSAL_COMMENT_MARKER));
    const listings = (issue: number) =>
      fake.requests.filter(
        (request) =>
          request.method === 'GET' && request.path.startsWith(`/repos/acme/widgets/issues/${issue}/comments`),
      ).length;
    const issueCount = async () => (await listIssues(fake)).length;

    await waitFor(() => proposalOn(1), 'the first proposal', run.output);

    // A drive-by user and a bot comment: polled, and neither is feedback.
    fake.human.comment(1, 'Please ship this as is', { login: 'stranger', association: 'NONE' });
    fake.human.comment(1, 'Coverage report: 81%', {
      login: 'coverage-bot',
      association: 'MEMBER',
      bot: true,
    });
    const polled = listings(1);
    await waitFor(() => listings(1) >= polled + 2, 'two polls after the drive-by comments', run.output);
    expect(server.requestsFor('revised-planner')).toHaveLength(0);
    expect(await issueCount()).toBe(1);
    expect(fake.human.issueLabels(1)).toContain('status:waiting-for-input');

    // The owner's plain comment: the proposal closes, and the revision is proposed on a new issue.
    fake.human.comment(1, FEEDBACK);
    await waitFor(() => proposalOn(2), 'the revised proposal', run.output);
    expect(commentsOf(1).some((body) => body.includes(`Revised on feedback from octocat: ${FEEDBACK}`))).toBe(
      true,
    );
    expect((await listIssues(fake)).find((issue) => issue.number === 1)?.state).toBe('closed');
    expect(commentsOf(2).find((body) => body.includes(PROPOSAL_COMMENT_MARKER))).toContain(
      '(a revision of the plan rejected on #1)',
    );

    // kill -9, then a new process: the comment on #1 is never read again, no second revision.
    run.child.kill('SIGKILL');
    await run.exited;
    const before = listings(2);
    const restarted = startHostedFlotilla(fixtures, hosted, server);
    await waitFor(
      () => listings(2) >= before + 2,
      'the restarted run to poll the revision',
      restarted.output,
    );
    expect(server.requestsFor('revised-planner').length).toBeGreaterThan(0);
    expect(server.requestsFor('planner')).toHaveLength(1);
    const revisions = server.requestsFor('revised-planner').length;
    expect(await issueCount()).toBe(2);

    fake.human.comment(2, '/accept');
    await waitFor(async () => (await issueCount()) >= 4, 'the planned issues', restarted.output);
    await waitFor(
      async () => (await listIssues(fake)).find((issue) => issue.number === 2)?.state === 'closed',
      'the revised proposal to close',
      restarted.output,
    );
    const titles = (await listIssues(fake)).map((issue) => issue.title);
    expect(titles).toContain('Parse the name argument');
    expect(titles).toContain('Add greet(name)');
    expect(titles).not.toContain(FIRST_TITLE);
    expect(server.requestsFor('revised-planner')).toHaveLength(revisions);

    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
  }, 300_000);
});
