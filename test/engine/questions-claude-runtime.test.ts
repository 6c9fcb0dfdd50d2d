/**
 * Questions → `flotilla answer` → the same SDK session resumes, through the whole control plane: the real
 * Claude Agent SDK binary against the scripted model server (every role `scripted`), the local provider on
 * SQLite and real git worktrees. The resumed request must carry the answer (unmet expectations are
 * rejected, so the run would fail and the item never be approved).
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { answerWaitingImplementor } from '../support/answer-waiting-implementor.ts';
import { buildQuestionsScenario, ROLE_MARKERS } from '../support/build-questions-scenario.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';

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
    const repo = await fixtures.scriptedDemoRepository(scenario);
    const controlPlane = await fixtures.startControlPlane(repo);
    const { waiting } = await answerWaitingImplementor(controlPlane, repo.root, 'Use SQLite.', (kept) => {
      expect(existsSync(kept.session.stateDir ?? '')).toBe(true);
    });
    expect(existsSync(waiting.session.stateDir ?? '')).toBe(false);
  }, 240_000);
});
