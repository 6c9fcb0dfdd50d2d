/**
 * In-session validation end to end: the engine, the real Claude adapter (real SDK, scripted model server) and
 * a repository whose real test command (`npm test`, node:test) is the validation command.
 */
import { describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { createModelServer } from '../../src/model-server/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import {
  createAgentRepo,
  createSingleRuntimeEngine,
  createTestClaudeAdapter,
} from '../support/create-runtime-engine.ts';
import { createInMemoryProvider } from '../support/in-memory-provider/create-in-memory-provider.ts';
import { type EngineSetup, trackEngineSetup } from '../support/track-engine-setup.ts';

type Setup = EngineSetup;
const track = trackEngineSetup();

/** A tiny node project whose `npm test` checks that greet() says hello; greet.js is the item's work. */
async function setUp(scenario: ScenarioSpec, maxRounds: number): Promise<Setup> {
  const repo = await createAgentRepo({
    files: {
      'package.json': `${JSON.stringify({ name: 'sample', type: 'module', scripts: { test: 'node --test' } })}\n`,
      'test/greet.test.js': [
        "import assert from 'node:assert/strict';",
        "import { test } from 'node:test';",
        "import { greet } from '../src/greet.js';",
        '',
        "test('greet says hello', () => assert.equal(greet(), 'hello'));",
        '',
      ].join('\n'),
    },
  });
  const server = await createModelServer(scenario);
  const provider = createInMemoryProvider({ initialPipelineStatus: 'success' });
  const logger = createRecordingLogger();
  const engine = createSingleRuntimeEngine({
    provider,
    logger,
    createAdapter: () =>
      createTestClaudeAdapter(repo, server, logger, {
        validation: { commands: ['npm test'], maxRounds, timeoutMs: 60_000 },
      }),
  });
  return track({ engine, provider, server, repo });
}

const writeGreet = (word: string) => ({
  content: [
    {
      type: 'tool_use' as const,
      name: 'Write',
      input: { file_path: '{{cwd}}/src/greet.js', content: `export const greet = () => '${word}';\n` },
    },
  ],
});
const completed = { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Added greet' } };
/** What a fix round's prompt must carry: the wording, the command and node:test's report of `got`. */
const fixRoundExpectation = (got: string) => ({
  expect: {
    lastUserIncludes: [
      'The previous attempt produced validation errors',
      '`npm test` exited with code 1',
      `actual: '${got}'`,
    ],
  },
});

function implementorRoute(words: string[]): ScenarioSpec['routes'][number] {
  return {
    name: 'implementor',
    match: { firstUserIncludes: '## Work Item #1 — Add greet' },
    steps: words.flatMap((word, round) => [
      round === 0 ? writeGreet(word) : { ...writeGreet(word), ...fixRoundExpectation(words[round - 1]!) },
      completed,
    ]),
  };
}

describe('engine + Claude adapter: in-session validation with the repository’s real test command', () => {
  it('the first round fails npm test, the resumed round fixes it, and the fixed work goes to review and is approved', async () => {
    const { engine, provider, server } = await setUp(
      {
        name: 'validation-fixed',
        onUnmetExpectation: 'reject',
        routes: [
          {
            name: 'reviewer',
            match: { firstUserIncludes: '## Revision #' },
            steps: [
              {
                expect: { firstUserIncludes: "+export const greet = () => 'hello';" },
                structuredOutput: {
                  role: 'reviewer',
                  review: { verdict: 'approve', summary: 'Tests pass.', comments: [] },
                },
              },
            ],
          },
          implementorRoute(['helo', 'hello']),
        ],
      },
      3,
    );
    provider.control.addWorkItem({ title: 'Add greet', body: 'Objective: greet.', status: 'pending' });
    await engine.start();
    await waitUntil(
      () => engine.getState().workItems['1']?.status === 'approved',
      90_000,
      'the item to be approved',
    );
    expect(server.report().problems).toEqual([]);
    const runs = Object.values(engine.getState().agentRuns);
    expect(runs.map((run) => [run.role, run.status])).toEqual([
      ['implementor', 'completed'],
      ['reviewer', 'completed'],
    ]);
    // One implementor run, two rounds: its usage is both rounds' (100 input tokens per scripted request).
    const implementorRequests = server
      .requestsFor('implementor')
      .filter((request) => request.kind === 'step');
    expect(implementorRequests).toHaveLength(4);
    expect(runs[0]?.usage).toMatchObject({ inputTokens: 400, outputTokens: 80 });
  }, 150_000);

  it('every round fails npm test: the run fails with reason validation and the item needs refinement, with the last errors in a comment', async () => {
    const { engine, provider, server } = await setUp(
      { name: 'validation-red', onUnmetExpectation: 'reject', routes: [implementorRoute(['helo', 'hallo'])] },
      1,
    );
    provider.control.addWorkItem({ title: 'Add greet', body: 'Objective: greet.', status: 'pending' });
    await engine.start();
    await waitUntil(
      () => provider.control.workItemComments('1').length > 0,
      90_000,
      'the needs-refinement comment',
    );
    expect(server.report().problems).toEqual([]);
    const state = engine.getState();
    expect(state.workItems['1']?.status).toBe('needs-refinement');
    const runs = Object.values(state.agentRuns);
    expect(runs.map((run) => [run.role, run.status])).toEqual([['implementor', 'failed']]);
    expect(runs[0]?.error).toMatch(
      /^validation still fails after 1 fix round: npm test exited with code 1\n/,
    );
    expect(state.failures['implementor:1']).toMatchObject({ attempts: 1, lastReason: 'validation' });
    const [comment] = provider.control.workItemComments('1');
    expect(comment).toContain('needs refinement and will not be retried automatically');
    expect(comment).toContain("actual: 'hallo'");
    expect(comment).not.toContain("actual: 'helo'");
    expect(comment).toContain(`Session: ${runs[0]?.sessionID}`);
    expect(provider.control.toWorkItem('1').status).toBe('needs-refinement');
  }, 150_000);
});
