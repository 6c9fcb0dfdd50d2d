/**
 * A refinement that asks instead of proposing (issue #29 §1, mode `refine` "… or asks questions"), through the
 * whole control plane: the real Claude Agent SDK binary against the scripted model server, the local provider
 * on SQLite and a real git repository. The refiner of a `task:refine` item stops with a question; the item
 * waits for input; `flotilla answer` resumes the same session — still in refine mode, still read-only (its
 * write is refused) — whose report, with `approval.refinements: required`, waits as a proposal and, accepted,
 * rewrites the item, which is then implemented. The server refuses the resumed request unless it carries the
 * answer, and the write step unless the tool result says the session is read-only.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { buildModeAgentFile } from '../../src/runtimes/claude/mode-agent-files.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';
import {
  APPROVING_REVIEWER_ROUTE,
  FAREWELL_CRITERION,
  FAREWELL_IMPLEMENTOR_ROUTE,
  FAREWELL_REFINE_REPORT,
} from '../support/farewell-refinement-routes.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const QUESTION = 'Should goodbye be a function or a CLI command?';
const ANSWER = 'A function farewell(name) in src/farewell.js';

const scenario: ScenarioSpec = {
  name: 'refine-questions',
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
                tempID: 'vague',
                title: 'Say goodbye somehow',
                body: 'We should also say goodbye.',
                labels: ['task:refine'],
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
      name: 'refiner',
      match: { systemIncludes: 'You turn one vague work item into a precise one' },
      steps: [
        {
          expect: { firstUserIncludes: 'Say goodbye somehow' },
          structuredOutput: { role: 'implementor', outcome: 'questions', questions: [QUESTION] },
        },
        {
          // The resumed session: the answer arrives; it tries to write anyway.
          expect: { lastUserIncludes: [ANSWER] },
          content: [
            {
              type: 'tool_use',
              name: 'Bash',
              input: { command: 'echo "export const farewell = 1;" > src/farewell.js', description: 'Write' },
            },
          ],
        },
        {
          expect: { lastToolResultIncludes: 'this session is read-only' },
          structuredOutput: FAREWELL_REFINE_REPORT,
        },
      ],
    },
    FAREWELL_IMPLEMENTOR_ROUTE,
    APPROVING_REVIEWER_ROUTE,
  ],
};

describe('a refinement that asks questions, on the Claude runtime (real SDK)', () => {
  it('waits for input; the answered session, still read-only, proposes; accepted, the item is implemented', async () => {
    const repo = await fixtures.configuredDemoRepository(
      {
        runtimes: { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' },
        scriptedScenario: 'scenario.json',
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        validation: { commands: [] },
        approval: { refinements: 'required' },
      },
      {
        prepare: async (root) => {
          await writeFile(join(root, 'scenario.json'), JSON.stringify(scenario));
          await writeFile(join(root, '.claude', 'agents', 'refine.md'), buildModeAgentFile('refine'));
        },
        message: 'Refine questions scenario',
      },
    );
    const controlPlane = await fixtures.startControlPlane(repo);
    const state = () => controlPlane.engine.getState();
    const vague = () =>
      Object.values(state().workItems).find((candidate) => candidate.title === 'Say goodbye somehow');

    await waitUntil(() => vague()?.status === 'waiting-for-input', 120_000, 'the refiner’s questions');
    const item = vague()!;
    expect(state().proposals).toEqual({});
    const answered = await runFlotillaInProcess(repo.root, ['answer', item.id, ANSWER]);
    expect(answered.code).toBe(0);

    const proposal = () =>
      Object.values(state().proposals).find((candidate) => candidate.kind === 'refinement');
    await waitUntil(() => proposal()?.status === 'pending', 120_000, 'the refinement proposal');
    expect(proposal()?.subjectID).toBe(item.id);
    expect(state().workItems[item.id]?.status).toBe('needs-refinement');
    const runs = controlPlane.persistence.listRuns().filter((run) => run.role === 'implementor');
    expect(runs.map((run) => (run.role === 'implementor' ? run.mode : null))).toEqual(['refine', 'refine']);

    expect((await runFlotillaInProcess(repo.root, ['proposals', 'accept', proposal()!.id])).code).toBe(0);
    await waitUntil(
      () => state().workItems[item.id]?.status === 'approved',
      180_000,
      'the refined item approved',
    );
    expect(state().workItems[item.id]).toMatchObject({ title: 'Add farewell(name)', complexity: 'trivial' });
  }, 400_000);
});
