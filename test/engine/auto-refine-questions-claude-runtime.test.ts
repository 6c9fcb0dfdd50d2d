/**
 * An automatic refinement that asks (issue #29 §1, `refine` "… or asks questions") waits for the answers,
 * through the whole control plane: the real Claude Agent SDK binary against the scripted model server, the
 * local provider on SQLite and a real git repository. The planner files a vague `task:refinement` item; the
 * engine refines it on its own; the refiner stops with a question, so the item waits for input (the
 * questions posted, the session kept) — across a restart of the control plane too. `flotilla answer`
 * resumes the same session, still in refine mode (the server refuses the resumed request unless it carries
 * the answer and the first prompt, which only a resumed session has); its report is applied at once, and the
 * precise item goes back to pending and is implemented and approved.
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

const VAGUE_BODY = 'Users should be able to say goodbye somehow; nobody decided how.';
const QUESTION = 'Should goodbye be a function or a CLI command?';
const ANSWER = 'A function farewell(name) in src/farewell.js';

const scenario: ScenarioSpec = {
  name: 'auto-refine-questions',
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
                body: VAGUE_BODY,
                labels: ['task:refinement'],
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
          expect: { firstUserIncludes: VAGUE_BODY },
          structuredOutput: { role: 'implementor', outcome: 'questions', questions: [QUESTION] },
        },
        {
          // The resumed session: the answer arrives after the asking turn (the first prompt is there too).
          expect: { lastUserIncludes: [ANSWER], messagesInclude: [VAGUE_BODY] },
          structuredOutput: FAREWELL_REFINE_REPORT,
        },
      ],
    },
    FAREWELL_IMPLEMENTOR_ROUTE,
    APPROVING_REVIEWER_ROUTE,
  ],
};

describe('an automatic refinement that asks, on the Claude runtime (real SDK)', () => {
  it('waits for input across a restart; answered, the same refinement goes on, applied, implemented', async () => {
    const repo = await fixtures.configuredDemoRepository(
      {
        runtimes: { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' },
        scriptedScenario: 'scenario.json',
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
        validation: { commands: [] },
      },
      {
        prepare: async (root) => {
          await writeFile(join(root, 'scenario.json'), JSON.stringify(scenario));
          await writeFile(join(root, '.claude', 'agents', 'refine.md'), buildModeAgentFile('refine'));
        },
        message: 'Auto refine questions scenario',
      },
    );
    const first = await fixtures.startControlPlane(repo);
    const vague = () =>
      Object.values(first.engine.getState().workItems).find((item) => item.title === 'Say goodbye somehow');
    await waitUntil(() => vague()?.status === 'waiting-for-input', 120_000, 'the refiner’s questions');
    const itemID = vague()!.id;
    expect(first.engine.getState().waitingForInput[itemID]).toMatchObject({
      role: 'implementor',
      mode: 'refine',
      questions: [QUESTION],
    });
    const comments = (await first.provider.workItemReader.listComments?.(itemID)) ?? [];
    expect(comments.map((comment) => comment.body).join('\n')).toContain(`1. ${QUESTION}`);
    await first.close();

    // A new process: the item still waits, nothing refines it meanwhile.
    const second = await fixtures.startControlPlane(repo);
    const state = () => second.engine.getState();
    await second.engine.whenQuiescent();
    expect(state().workItems[itemID]?.status).toBe('waiting-for-input');
    expect(state().waitingForInput[itemID]).toMatchObject({ mode: 'refine' });

    expect((await runFlotillaInProcess(repo.root, ['answer', itemID, ANSWER])).code).toBe(0);
    await waitUntil(
      () => state().workItems[itemID]?.status === 'approved',
      240_000,
      'the refined item approved',
    );
    expect(state().workItems[itemID]).toMatchObject({
      kind: 'task',
      title: 'Add farewell(name)',
      complexity: 'trivial',
    });
    const runs = second.persistence
      .listRuns()
      .filter((run) => run.role === 'implementor')
      .sort((a, b) => a.requestedAt - b.requestedAt)
      .map((run) => [
        run.role === 'implementor' ? (run.mode ?? 'implement') : null,
        run.sessionNumber ?? 1,
        run.askedQuestions === true,
        run.status,
      ]);
    expect(runs).toEqual([
      ['refine', 1, true, 'completed'],
      ['refine', 2, false, 'completed'],
      ['implement', 1, false, 'completed'],
    ]);
    expect(state().waitingForInput).toEqual({});
  }, 500_000);
});
