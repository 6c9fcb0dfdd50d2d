/**
 * The engine driving the generic CLI runtime with the fake agent CLI as a real process: the engine's
 * prompts reach the agent, its signal file becomes the run's result, its patch the revision.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/create-engine.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import type { FakeAgentRound } from '../support/cli-runtime/fake-agent-cli.ts';
import {
  type CliRuntimeFixture,
  createCliRuntimeFixture,
  FAKE_AGENT_PROGRAM,
} from '../support/cli-runtime-fixture.ts';
import { createRunFixtures, FAKE_AGENT_LOOP_SETTINGS } from '../support/create-run-fixtures.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
} from '../support/in-memory-provider/create-in-memory-provider.ts';

let fixture: CliRuntimeFixture | null = null;
let runningEngine: Engine | null = null;
afterEach(async () => {
  await runningEngine?.stop();
  await fixture?.cleanup();
  runningEngine = null;
  fixture = null;
});

async function setUp(rounds: FakeAgentRound[]): Promise<{ engine: Engine; provider: InMemoryProvider }> {
  fixture = await createCliRuntimeFixture();
  const runtime = await fixture.runtimeFor(rounds, { preset: 'codex' });
  const provider = createInMemoryProvider({ initialPipelineStatus: 'success' });
  runningEngine = createEngine({
    provider,
    logger: createRecordingLogger(),
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 30,
    createRuntimeAdapters: () => ({ planner: runtime, implementor: runtime, reviewer: runtime }),
  });
  return { engine: runningEngine, provider };
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
  const fixtures = createRunFixtures();
  afterEach(() => fixtures.cleanup());

  it('plans, implements and reviews the demo spec through the fake agent CLI', async () => {
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
    const scriptPath = await fixtures.fakeAgentScript(rounds);
    const cli = { runtime: 'cli', preset: 'claude', program: FAKE_AGENT_PROGRAM };
    const repo = await fixtures.configuredDemoRepository(
      { runtimes: { planner: cli, implementor: cli, reviewer: cli }, ...FAKE_AGENT_LOOP_SETTINGS },
      { message: 'CLI runtimes' },
    );
    const controlPlane = await fixtures.startControlPlane(repo, {
      FAKE_AGENT_SCRIPT: scriptPath,
      // The claude preset needs a key to be available; the fake agent never uses it.
      ANTHROPIC_API_KEY: 'unused-by-the-fake',
    });

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
