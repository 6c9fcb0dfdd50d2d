/**
 * Questions → `flotilla answer` → the same SDK session resumes, through the whole control plane: the real
 * Claude Agent SDK binary against the scripted model server (every role `scripted`), the local provider on
 * SQLite and real git worktrees. The resumed request must carry the answer (unmet expectations are
 * rejected, so the run would fail and the item never be approved).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import { buildQuestionsScenario, ROLE_MARKERS } from '../support/build-questions-scenario.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { createRunFixtures, QUICK_LOOP_SETTINGS } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const scenario = buildQuestionsScenario({
  name: 'questions-claude',
  roleMarker: ROLE_MARKERS.claude,
  item: { title: 'Store', body: 'Objective: keep data.' },
  questions: ['Which database should the store use?'],
  answer: 'Use SQLite.',
  work: [
    {
      type: 'tool_use',
      name: 'Write',
      input: { file_path: '{{cwd}}/src/store.js', content: 'export const store = "sqlite";\n' },
    },
  ],
  summary: 'store added',
});

describe('questions on the Claude runtime (real SDK), answered with flotilla answer', () => {
  it('waits for input, then resumes the same SDK session with the answer and finishes the item', async () => {
    const repo = await fixtures.configuredDemoRepository(
      {
        runtimes: { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' },
        scriptedScenario: 'questions.scenario.json',
        ...QUICK_LOOP_SETTINGS,
        validation: { commands: [] },
      },
      {
        prepare: (root) => writeFile(join(root, 'questions.scenario.json'), JSON.stringify(scenario)),
        message: 'scripted questions',
      },
    );
    const controlPlane = await fixtures.startControlPlane(repo);
    const state = () => controlPlane.engine.getState();

    await waitUntil(
      () => Object.values(state().workItems).some((item) => item.status === 'waiting-for-input'),
      90_000,
      'the item to wait for input',
    );
    const waiting = Object.values(state().waitingForInput)[0];
    if (waiting === undefined) throw new Error('no waiting session');
    expect(existsSync(waiting.session.stateDir ?? '')).toBe(true);
    const answered = await runFlotillaInProcess(repo.root, ['answer', waiting.workItemID, 'Use SQLite.']);
    expect(answered.code).toBe(0);

    await waitUntil(
      () => state().workItems[waiting.workItemID]?.status === 'approved',
      90_000,
      'the answered item to be approved',
    );
    const implementorRuns = controlPlane.persistence
      .listRuns({ workItemID: waiting.workItemID })
      .filter((run) => run.role === 'implementor')
      .reverse();
    expect(
      implementorRuns.map((run) => [run.sessionNumber ?? 1, run.askedQuestions === true, run.status]),
    ).toEqual([
      [1, true, 'completed'],
      [2, false, 'completed'],
    ]);
    expect(existsSync(waiting.session.stateDir ?? '')).toBe(false);
  }, 240_000);
});
