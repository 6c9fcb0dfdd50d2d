/**
 * The plan gate's rejection and an investigation on GitHub, end to end (issue #29): `flotilla run` with
 * `approval.plans: required` in a clone of a repository on the fake GitHub (127.0.0.1), every agent the real
 * Claude Agent SDK answered by the scripted model server, in the OS sandbox. The owner's `/reject <why>` on
 * the proposal's issue closes it and starts a plan-revision whose prompt carries the reason (the server
 * refuses the request otherwise); its proposal, accepted with `/accept`, creates a bug report
 * (`task:investigate`) whose investigator reads the repository read-only and reports: the fix issue is
 * created, the report posted on the bug, which closes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROPOSAL_COMMENT_MARKER } from '../../src/domain/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { buildModeAgentFile } from '../../src/runtimes/claude/mode-agent-files.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';
import {
  hostedDemoRepository,
  listIssues,
  startHostedFlotilla,
  waitFor,
} from '../support/github/hosted-flotilla-run.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const REASON = 'Report the greeting crash as a bug first';
const ROOT_CAUSE = 'greet() reads name.trim() on an undefined name';
const BUG_TITLE = 'greet() crashes without a name';
const FIX_TITLE = 'Default the name of greet()';

const plan = (title: string, labels: string[]) => ({
  structuredOutput: {
    role: 'planner',
    create: [{ tempID: 'first', title, body: `Objective: ${title}.`, labels, blockedBy: [] }],
    close: [],
    update: [],
  },
});

const scenario: ScenarioSpec = {
  name: 'github-modes',
  onUnmetExpectation: 'reject',
  routes: [
    {
      // The plan-revision run: its prompt opens with the human's reason.
      name: 'revised-planner',
      match: { systemIncludes: 'You are the planner', firstUserIncludes: REASON },
      steps: [plan(BUG_TITLE, ['task:investigate', 'priority:high'])],
    },
    {
      name: 'planner',
      match: { systemIncludes: 'You are the planner' },
      steps: [plan('Add greet(name)', [])],
    },
    {
      name: 'investigator',
      match: { systemIncludes: 'You investigate one bug report' },
      steps: [
        {
          expect: { firstUserIncludes: BUG_TITLE },
          content: [{ type: 'tool_use', name: 'Bash', input: { command: 'git log --oneline -1' } }],
        },
        {
          // It read the repository (in its read-only worktree) before it reported.
          expect: { lastToolResultIncludes: 'Flotilla settings for the test' },
          structuredOutput: {
            mode: 'investigate',
            summary: 'greet() assumes a name.',
            rootCause: ROOT_CAUSE,
            evidence: ['greet() → TypeError'],
            files: ['src/greet.js'],
            fixes: [
              {
                tempID: 'fix',
                title: FIX_TITLE,
                body: 'greet() with no name returns "Hello, world!".',
                labels: ['task:implement', 'priority:high', 'complexity:trivial'],
                blockedBy: [],
              },
            ],
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

describe('flotilla run with provider github: /reject <why>, then an investigation', () => {
  it('revises the rejected plan with the reason; the accepted bug report is investigated', async () => {
    const hosted = await hostedDemoRepository(fixtures, { approval: { plans: 'required' } }, (root) => {
      writeFileSync(join(root, '.claude', 'agents', 'investigate.md'), buildModeAgentFile('investigate'));
    });
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

    await waitFor(() => proposalOn(1), 'the first proposal', run.output);
    fake.human.comment(1, `/reject ${REASON}`);
    await waitFor(() => proposalOn(2), 'the revised proposal', run.output);
    expect(fake.issueComments(1).some((body) => body.includes(`Rejected by`) && body.includes(REASON))).toBe(
      true,
    );
    expect(server.requestsFor('revised-planner').length).toBeGreaterThan(0);
    expect(server.requestsFor('planner')).toHaveLength(1);

    fake.human.comment(2, '/accept');
    await waitFor(
      () => commentsOf(3).some((body) => body.includes(ROOT_CAUSE)),
      'the investigation report on the bug',
      run.output,
    );
    await waitFor(
      async () => (await listIssues(fake)).find((issue) => issue.number === 3)?.state === 'closed',
      'the investigated bug to close',
      run.output,
    );
    const issues = new Map((await listIssues(fake)).map((issue) => [issue.number, issue]));
    expect(issues.get(1)?.state).toBe('closed');
    expect(issues.get(3)?.title).toBe(BUG_TITLE);
    expect(issues.get(3)?.labels.map((label) => label.name)).toContain('task:investigate');
    expect(issues.get(4)?.title).toBe(FIX_TITLE);
    const report = fake.issueComments(3).find((body) => body.includes(ROOT_CAUSE)) ?? '';
    expect(report).toContain('## Investigation report');
    expect(report).toContain('Fix items: #4');
    expect(server.report().unmetExpectations).toEqual([]);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 300_000);
});
