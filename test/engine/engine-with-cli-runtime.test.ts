/**
 * The engine driving the generic CLI runtime with the fake agent CLI as a real process: the engine's
 * prompts reach the agent, its signal file becomes the run's result, its patch the revision.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createControlPlane } from '../../src/app/create-control-plane.ts';
import { createDemoRepository } from '../../src/app/demo/create-demo-repository.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createEngine, type Engine } from '../../src/engine/create-engine.ts';
import { createRecordingLogger, silentLogger } from '../../src/logging/logger.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
} from '../../src/providers/in-memory/create-in-memory-provider.ts';
import type { FakeAgentRound } from '../../src/runtimes/cli/test-support/fake-agent-cli.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import {
  type CliRuntimeFixture,
  createCliRuntimeFixture,
  FAKE_AGENT_PROGRAM,
} from '../support/cli-runtime-fixture.ts';

let fixture: CliRuntimeFixture | null = null;
let engine: Engine | null = null;
afterEach(async () => {
  await engine?.stop();
  await fixture?.cleanup();
  engine = null;
  fixture = null;
});

async function setUp(rounds: FakeAgentRound[]): Promise<{ engine: Engine; provider: InMemoryProvider }> {
  fixture = await createCliRuntimeFixture();
  const runtime = await fixture.runtimeFor(rounds, { preset: 'codex' });
  const provider = createInMemoryProvider({ initialPipelineStatus: 'success' });
  engine = createEngine({
    provider,
    logger: createRecordingLogger(),
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 30,
    createRuntimeAdapters: () => ({ planner: runtime, implementor: runtime, reviewer: runtime }),
  });
  return { engine, provider };
}

describe('engine + CLI runtime (fake agent CLI)', () => {
  it('implements and reviews an item end to end through signal files', async () => {
    const { engine, provider } = await setUp([
      {
        promptIncludes: '## Revision #',
        steps: [
          {
            signal: {
              status: 'done',
              result: { review: { verdict: 'approve', summary: 'Looks right.', comments: [] } },
            },
          },
        ],
      },
      {
        promptIncludes: '## Work Item #1 — Add a greeting',
        steps: [
          { print: 'Writing the greeting.' },
          { write: { path: 'greeting.txt', content: 'hello\n' } },
          { signal: { status: 'done', result: { outcome: 'completed', summary: 'Added greeting.txt' } } },
        ],
      },
    ]);
    provider.control.addWorkItem({ title: 'Add a greeting', body: 'Objective: greet.', status: 'pending' });
    await engine.start();
    await waitUntil(
      () => engine.getState().workItems['1']?.status === 'approved',
      45_000,
      'the item to be approved',
    );

    const runs = Object.values(engine.getState().agentRuns);
    expect(runs.map((run) => [run.role, run.status, run.runtime])).toEqual([
      ['implementor', 'completed', 'cli:codex'],
      ['reviewer', 'completed', 'cli:codex'],
    ]);
    const calls = fixture?.calls() ?? [];
    expect(calls.map((call) => call.argv.slice(0, 2))).toEqual([
      ['exec', '--json'],
      ['exec', '--json'],
    ]);
    // The reviewer saw the implementor's patch in the prompt the engine built.
    expect(calls[1]?.prompt).toContain('+hello');
  }, 90_000);
});

describe('flotilla run wiring: every role on the CLI runtime (config)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('plans, implements and reviews the demo spec through the fake agent CLI', async () => {
    const repo = await createDemoRepository();
    cleanups.push(() => rm(repo.root, { recursive: true, force: true }));
    const scriptDir = await mkdtemp(join(tmpdir(), 'flotilla-cli-run-'));
    cleanups.push(() => rm(scriptDir, { recursive: true, force: true }));
    const scriptPath = join(scriptDir, 'script.json');
    // The signal instructions name the role's result: each role plays its own round.
    const rounds: FakeAgentRound[] = [
      {
        promptIncludes: '<your planner result>',
        steps: [
          {
            signal: {
              status: 'done',
              result: {
                create: [
                  { tempID: 'a', title: 'Greet', body: 'Objective: greet.', labels: [], blockedBy: [] },
                ],
                close: [],
                update: [],
              },
            },
          },
        ],
      },
      {
        promptIncludes: '<your implementor result>',
        steps: [
          { write: { path: 'src/greet.js', content: 'export const greet = () => "hi";\n' } },
          { commit: 'greet' },
          { signal: { status: 'done', result: { outcome: 'completed', summary: 'greet added' } } },
        ],
      },
      {
        promptIncludes: '<your reviewer result>',
        steps: [
          {
            signal: {
              status: 'done',
              result: { review: { verdict: 'approve', summary: 'ok', comments: [] } },
            },
          },
        ],
      },
    ];
    await writeFile(scriptPath, JSON.stringify({ rounds }));
    const cli = { runtime: 'cli', preset: 'claude', program: FAKE_AGENT_PROGRAM };
    const configPath = join(repo.root, 'flotilla.config.json');
    const config: Record<string, unknown> = JSON.parse(await readFile(configPath, 'utf8'));
    await writeFile(
      configPath,
      JSON.stringify({
        ...config,
        runtimes: { planner: cli, implementor: cli, reviewer: cli },
        checks: { command: null },
        worktree: { setupCommand: 'none' },
        pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
      }),
    );
    execFileSync('git', ['commit', '--quiet', '-am', 'CLI runtimes'], {
      cwd: repo.root,
      env: { ...process.env, ...repo.gitEnv },
    });
    const loaded = await loadConfig(repo.root);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const controlPlane = await createControlPlane({
      repoRoot: repo.root,
      config: loaded.config,
      logger: silentLogger,
      // The claude preset needs a key to be available; the fake agent never uses it.
      extraEnv: { FAKE_AGENT_SCRIPT: scriptPath, ANTHROPIC_API_KEY: 'unused-by-the-fake', ...repo.gitEnv },
    });
    cleanups.push(() => controlPlane.close());
    await controlPlane.engine.start();

    const state = () => controlPlane.engine.getState();
    await waitUntil(
      () => Object.values(state().workItems).some((item) => item.status === 'approved'),
      60_000,
      'the planned item to be approved',
    );
    const runs = Object.values(state().agentRuns);
    expect(runs.map((run) => [run.role, run.status, run.runtime])).toEqual([
      ['planner', 'completed', 'cli:claude'],
      ['implementor', 'completed', 'cli:claude'],
      ['reviewer', 'completed', 'cli:claude'],
    ]);
  }, 120_000);
});
