/**
 * Automatic refinement on GitHub, end to end (issue #29 §1: `refine` runs for an item "labelled
 * `task:refinement`"): `flotilla run` in a clone of a repository on the fake GitHub (127.0.0.1), every agent
 * the real Claude Agent SDK answered by the scripted model server. A human files a vague issue labelled
 * `task:refinement` only; with the defaults (`modes.refine.auto` on, `approval.refinements: auto`) the engine
 * refines it on its own: the issue's title, body and labels are rewritten (`task:implement`,
 * `complexity:trivial`), it goes back to pending and its implementor gets the precise item. The refiner is
 * asked once: the body it wrote is never refined again.
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

const VAGUE_BODY = 'The CLI should say goodbye somehow. Nobody decided how yet.';
const CRITERION = 'farewell(name) returns Goodbye, <name>!';

const scenario: ScenarioSpec = {
  name: 'github-auto-refine',
  onUnmetExpectation: 'reject',
  routes: [
    {
      name: 'planner',
      match: { systemIncludes: 'You are the planner' },
      steps: [{ structuredOutput: { role: 'planner', create: [], close: [], update: [] } }],
    },
    {
      name: 'refiner',
      match: { systemIncludes: 'You turn one vague work item into a precise one' },
      steps: [
        {
          // Matched by the issue's body, never by a title.
          expect: { firstUserIncludes: VAGUE_BODY },
          structuredOutput: {
            mode: 'refine',
            summary: 'Goodbye is a farewell() function.',
            title: 'Add farewell(name)',
            body: 'Add farewell(name) to src/farewell.js.',
            acceptanceCriteria: [CRITERION],
            files: ['src/farewell.js'],
            size: 'trivial',
            labels: [],
          },
        },
      ],
    },
    {
      // The refined item reaches its implementor; the test ends there.
      name: 'implementor',
      match: { systemIncludes: 'You are the implementor', firstUserIncludes: CRITERION },
      steps: [{ structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'not in this test' } }],
    },
  ],
};

describe('flotilla run with provider github: a task:refinement issue is refined on its own', () => {
  it('rewrites the issue (title, body, task:implement, complexity) and hands it to an implementor', async () => {
    const hosted = await hostedDemoRepository(fixtures, {}, (root) => {
      writeFileSync(join(root, '.claude', 'agents', 'refine.md'), buildModeAgentFile('refine'));
    });
    const { fake } = hosted;
    const issue = fake.human.createIssue({
      title: 'Goodbye',
      body: VAGUE_BODY,
      labels: ['task:refinement'],
    });
    const server = await fixtures.serve(scenario);
    const run = startHostedFlotilla(fixtures, hosted, server);
    const current = async () => (await listIssues(fake)).find((found) => found.number === issue);

    await waitFor(
      async () => (await current())?.title === 'Add farewell(name)',
      'the refined issue',
      run.output,
    );
    await waitFor(
      () => server.requestsFor('implementor').length > 0,
      'the implementor of the refined issue',
      run.output,
    );
    const refined = await current();
    expect(refined?.body).toContain(`- [ ] ${CRITERION}`);
    const labels = refined?.labels.map((label) => label.name) ?? [];
    expect(labels).toEqual(expect.arrayContaining(['task:implement', 'complexity:trivial']));
    expect(labels).not.toContain('task:refinement');
    expect(server.requestsFor('refiner')).toHaveLength(1);
    expect(server.report().unmetExpectations).toEqual([]);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 300_000);
  it("with approval.refinements required, an owner's /accept on the issue itself applies the proposal", async () => {
    const hosted = await hostedDemoRepository(fixtures, { approval: { refinements: 'required' } }, (root) => {
      writeFileSync(join(root, '.claude', 'agents', 'refine.md'), buildModeAgentFile('refine'));
    });
    const { fake } = hosted;
    const issue = fake.human.createIssue({ title: 'Goodbye', body: VAGUE_BODY, labels: ['task:refinement'] });
    const server = await fixtures.serve(scenario);
    const run = startHostedFlotilla(fixtures, hosted, server);
    const current = async () => (await listIssues(fake)).find((found) => found.number === issue);

    // The proposal is posted on the vague issue too (and on a task:proposal issue of its own).
    await waitFor(
      () => fake.issueComments(issue).some((body) => body.includes(PROPOSAL_COMMENT_MARKER)),
      'the proposal on the vague issue',
      run.output,
    );
    expect((await current())?.title).toBe('Goodbye');
    fake.human.comment(issue, '/accept');
    await waitFor(
      async () => (await current())?.title === 'Add farewell(name)',
      'the accepted refinement',
      run.output,
    );
    await waitFor(
      () => server.requestsFor('implementor').length > 0,
      'the implementor of the refined issue',
      run.output,
    );
    expect(server.requestsFor('refiner')).toHaveLength(1);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 300_000);
});
