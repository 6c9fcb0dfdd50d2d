/**
 * A planner's questions → a restart while they wait → `flotilla answer` → the same planner session resumes,
 * through the whole control plane: the real Claude Agent SDK binary against the scripted model server (every
 * role `scripted`), the local provider on SQLite and a real git repository. The resumed request must carry
 * the answer and the planner's first prompt (the kept conversation), else the server rejects it and no work
 * item is ever created.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const QUESTION = 'Should greetings of an empty name throw?';
const ANSWER = 'Yes: throw a TypeError.';

const plannerResult = {
  role: 'planner',
  create: [
    {
      tempID: 'greet',
      title: 'Greet',
      body: 'Objective: greet(name); an empty name throws.',
      labels: [],
      blockedBy: [],
    },
  ],
  close: [],
  update: [],
};

/** Implementors only stop: this test is about planning. */
const implementorRoute = {
  name: 'implementor',
  match: { systemIncludes: 'You are the implementor' },
  steps: [{ structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'not in this test' } }],
};

/**
 * The server answers by the conversation it is sent (the step is the number of assistant turns in it), so
 * after the restart the resumed session — which carries the asking turn — gets the second step.
 */
const scenario: ScenarioSpec = {
  name: 'planner-questions',
  onUnmetExpectation: 'reject',
  routes: [
    {
      name: 'planner',
      match: { systemIncludes: 'You are the planner' },
      steps: [
        { structuredOutput: { role: 'planner', outcome: 'questions', questions: [QUESTION] } },
        {
          // The first prompt is in the conversation only if the kept session was resumed.
          expect: {
            lastUserIncludes: ['A human answered your questions', ANSWER],
            messagesInclude: ['## Changed Specs', 'docs/specs/greetings.md'],
          },
          structuredOutput: plannerResult,
        },
      ],
    },
    implementorRoute,
  ],
};

describe("a planner's questions on the Claude runtime (real SDK)", () => {
  it('wait on a questions item across a restart, then the answered session plans and closes it', async () => {
    const repo = await fixtures.scriptedDemoRepository(scenario);
    const { root } = repo;
    const first = await fixtures.startControlPlane(repo);

    await waitUntil(
      () => Object.values(first.engine.getState().waitingForInput).some((entry) => entry.role === 'planner'),
      90_000,
      "the planner's questions to wait",
    );
    const waiting = Object.values(first.engine.getState().waitingForInput)[0];
    if (waiting === undefined) throw new Error('no waiting planner');
    const itemID = waiting.workItemID;
    expect(first.engine.getState().workItems[itemID]).toMatchObject({
      title: 'Planner questions: docs/specs/greetings.md',
      kind: 'questions',
      status: 'waiting-for-input',
    });
    const comments = (await first.provider.workItemReader.listComments?.(itemID)) ?? [];
    expect(comments.map((comment) => comment.body).join('\n')).toContain(`1. ${QUESTION}`);
    expect(existsSync(waiting.session.stateDir ?? '')).toBe(true);
    await first.close();

    // A new process (and a new model server).
    const second = await fixtures.startControlPlane(repo);
    await second.engine.whenQuiescent();
    expect(second.engine.getState().waitingForInput[itemID]).toMatchObject({
      role: 'planner',
      sessionID: waiting.sessionID,
      specSHAs: waiting.specSHAs,
    });
    expect(second.engine.getState().workItems[itemID]?.status).toBe('waiting-for-input');
    // Nothing planned meanwhile: the waiting planner is the only planner run.
    expect(second.persistence.listRuns().filter((run) => run.role === 'planner')).toHaveLength(1);
    expect(existsSync(waiting.session.stateDir ?? '')).toBe(true);

    const answer = await runFlotillaInProcess(root, ['answer', itemID, ANSWER]);
    expect(answer.code).toBe(0);
    await waitUntil(
      () => second.engine.getState().workItems[itemID]?.status === 'closed',
      90_000,
      'the questions item to close',
    );

    const greet = Object.values(second.engine.getState().workItems).find((item) => item.title === 'Greet');
    expect(greet).toMatchObject({ kind: 'task' });
    const closing = (await second.provider.workItemReader.listComments?.(itemID)) ?? [];
    expect(closing.at(-1)?.body).toContain(
      `The planner finished with your answers: it created #${greet?.id}`,
    );
    const plannerRuns = second.persistence
      .listRuns()
      .filter((run) => run.role === 'planner')
      .reverse();
    expect(
      plannerRuns.map((run) => [run.sessionNumber ?? 1, run.askedQuestions === true, run.status]),
    ).toEqual([
      [1, true, 'completed'],
      [2, false, 'completed'],
    ]);
    expect(second.engine.getState().lastPlannedSHAs).toEqual(waiting.specSHAs);
    expect(second.engine.getState().waitingForInput).toEqual({});
    expect(existsSync(waiting.session.stateDir ?? '')).toBe(false);
  }, 300_000);

  it('answered from the dashboard without a restart: the same session plans, the answer is recorded', async () => {
    const repo = await fixtures.scriptedDemoRepository(scenario);
    const controlPlane = await fixtures.startControlPlane(repo);
    const state = () => controlPlane.engine.getState();
    await waitUntil(
      () => Object.values(state().waitingForInput).some((entry) => entry.role === 'planner'),
      90_000,
      "the planner's questions to wait",
    );
    const waiting = Object.values(state().waitingForInput)[0];
    if (waiting === undefined) throw new Error('no waiting planner');
    controlPlane.engine.enqueue({
      type: 'questionsAnswered',
      workItemID: waiting.workItemID,
      answers: ANSWER,
      source: 'user',
    });
    await waitUntil(
      () => state().workItems[waiting.workItemID]?.status === 'closed',
      90_000,
      'the questions item to close',
    );
    expect(Object.values(state().workItems).map((item) => item.title)).toContain('Greet');
    const comments = (await controlPlane.provider.workItemReader.listComments?.(waiting.workItemID)) ?? [];
    expect(comments.map((comment) => comment.body)).toEqual([
      expect.stringContaining(QUESTION),
      expect.stringContaining(ANSWER),
      expect.stringContaining('The planner finished with your answers'),
    ]);
  }, 300_000);
});
