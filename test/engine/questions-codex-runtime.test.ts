/**
 * Questions → `flotilla answer` → the same codex thread resumes, through the whole control plane: the real
 * codex binary against the scripted Responses endpoint (every role `scripted`, `scriptedRuntime: codex`),
 * the local provider on SQLite and real git worktrees. The resumed request must carry the answer (unmet
 * expectations are rejected, so the run would fail and the item never be approved).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createControlPlane } from '../../src/app/create-control-plane.ts';
import { createDemoRepository } from '../../src/app/demo/create-demo-repository.ts';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import { loadConfig } from '../../src/config/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { buildQuestionsScenario, ROLE_MARKERS } from '../support/build-questions-scenario.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

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
    const repo = await createDemoRepository();
    cleanups.push(() => rm(repo.root, { recursive: true, force: true }));
    await writeFile(join(repo.root, 'questions.scenario.json'), JSON.stringify(scenario));
    const configPath = join(repo.root, 'flotilla.config.json');
    const config: Record<string, unknown> = JSON.parse(await readFile(configPath, 'utf8'));
    await writeFile(
      configPath,
      JSON.stringify({
        ...config,
        runtimes: { planner: 'scripted', implementor: 'scripted', reviewer: 'scripted' },
        scriptedScenario: 'questions.scenario.json',
        scriptedRuntime: 'codex',
        checks: { command: null },
        validation: { commands: [] },
        worktree: { setupCommand: 'none' },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
      }),
    );
    execFileSync('git', ['add', '-A'], { cwd: repo.root, env: { ...process.env, ...repo.gitEnv } });
    execFileSync('git', ['commit', '--quiet', '-m', 'scripted questions'], {
      cwd: repo.root,
      env: { ...process.env, ...repo.gitEnv },
    });
    const loaded = await loadConfig(repo.root);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const controlPlane = await createControlPlane({
      repoRoot: repo.root,
      config: loaded.config,
      logger: silentLogger,
      extraEnv: { ...repo.gitEnv },
    });
    cleanups.push(() => controlPlane.close());
    await controlPlane.engine.start();
    const state = () => controlPlane.engine.getState();

    await waitUntil(
      () => Object.values(state().workItems).some((item) => item.status === 'waiting-for-input'),
      90_000,
      'the item to wait for input',
    );
    const waiting = Object.values(state().waitingForInput)[0];
    if (waiting === undefined) throw new Error('no waiting session');
    expect(waiting.session.runtime).toBe('scripted');
    expect(existsSync(waiting.session.worktree?.path ?? '')).toBe(true);
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
    expect(existsSync(waiting.session.worktree?.path ?? '')).toBe(false);
    // Each session records only its own requests' tokens (100 input tokens each: one request asks, two
    // follow the answer), not the thread's running total, which codex reports again after the resume.
    expect(implementorRuns.map((run) => run.usage?.inputTokens)).toEqual([100, 200]);
  }, 240_000);
});
