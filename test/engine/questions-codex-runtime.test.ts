/**
 * Questions → `flotilla answer` → the same codex thread resumes, through the whole control plane: the real
 * codex binary against the scripted Responses endpoint (every role `scripted`, `scriptedRuntime: codex`),
 * the local provider on SQLite and real git worktrees. The resumed request must carry the answer (unmet
 * expectations are rejected, so the run would fail and the item never be approved).
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { answerWaitingImplementor } from '../support/answer-waiting-implementor.ts';
import { buildQuestionsScenario, ROLE_MARKERS } from '../support/build-questions-scenario.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const scenario = buildQuestionsScenario({
  name: 'questions-codex',
  roleMarker: ROLE_MARKERS.codex,
  item: { title: 'Store', body: 'Objective: keep data.' },
  questions: ['Which database should the store use?'],
  answer: 'Use SQLite.',
  work: [
    {
      type: 'tool_use',
      name: 'exec_command',
      input: { cmd: `mkdir -p src && printf 'export const store = "sqlite";\\n' > src/store.js` },
    },
  ],
  summary: 'store added',
});

describe('questions on the Codex runtime (real codex binary), answered with flotilla answer', () => {
  it('waits for input, then resumes the same codex thread with the answer and finishes the item', async () => {
    const repo = await fixtures.scriptedDemoRepository(scenario, { scriptedRuntime: 'codex' });
    const controlPlane = await fixtures.startControlPlane(repo);
    const { waiting, implementorRuns } = await answerWaitingImplementor(
      controlPlane,
      repo.root,
      'Use SQLite.',
      (kept) => {
        expect(kept.session.runtime).toBe('scripted');
        expect(existsSync(kept.session.worktree?.path ?? '')).toBe(true);
      },
    );
    expect(existsSync(waiting.session.worktree?.path ?? '')).toBe(false);
    // Each session records only its own requests' tokens (100 input tokens each: one request asks, two
    // follow the answer), not the thread's running total, which codex reports again after the resume.
    expect(implementorRuns.map((run) => run.usage?.inputTokens)).toEqual([100, 200]);
  }, 240_000);
});
