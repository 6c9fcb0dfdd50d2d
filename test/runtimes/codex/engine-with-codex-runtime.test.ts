/**
 * The engine driving the Codex runtime for every role (real codex binary, scripted Responses endpoint on
 * 127.0.0.1, proxy tripwire): an approved spec is planned, the work item implemented in a worktree, its
 * revision reviewed and approved — the same loop as with the Claude runtime.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import { createModelServer, type Scenario } from '../../../src/model-server/index.ts';
import { createCodexRuntime } from '../../../src/runtimes/codex/create-codex-runtime.ts';
import { createSingleRuntimeEngine } from '../../support/create-runtime-engine.ts';
import { createInMemoryProvider } from '../../support/in-memory-provider/create-in-memory-provider.ts';
import { createTempGitRepo } from '../../support/shared/create-temp-git-repo.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';
import { type EngineSetup, trackEngineSetup } from '../../support/track-engine-setup.ts';

type Setup = EngineSetup;
const track = trackEngineSetup();

async function setUp(scenario: Scenario): Promise<Setup> {
  const repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# Sample\n' });
  const server = await createModelServer(scenario);
  const tripwire = Object.fromEntries(
    ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY'].flatMap((name) => [
      [name, server.url],
      [name.toLowerCase(), server.url],
    ]),
  );
  const provider = createInMemoryProvider({ initialPipelineStatus: 'success' });
  const logger = createRecordingLogger();
  const engine = createSingleRuntimeEngine({
    provider,
    logger,
    createAdapter: () =>
      createCodexRuntime({
        sandbox: createTestSandbox(),
        repoRoot: repo.root,
        defaultBranch: 'main',
        logger,
        setupCommand: 'none',
        stateDir: join(repo.root, '.flotilla', 'codex'),
        model: 'scripted',
        provider: { id: 'flotilla-scripted', baseUrl: `${server.url}/v1`, envKey: 'SCRIPTED_KEY' },
        baseEnv: { ...process.env, SCRIPTED_KEY: 'dummy' },
        extraEnv: tripwire,
        maxAgentDuration: 120,
        logging: { agentSessions: true, logsDir: join(repo.root, '.flotilla', 'logs') },
        runtime: 'scripted',
      }),
  });
  return track({ engine, provider, server, repo });
}

async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('engine + Codex runtime', () => {
  it('plans a spec, implements the item and approves its revision, all through codex', async () => {
    const { engine, provider, server, repo } = await setUp({
      name: 'codex-loop',
      onUnmetExpectation: 'reject',
      routes: [
        {
          name: 'planner',
          match: { firstUserIncludes: '## Changed Specs' },
          steps: [
            {
              expect: { firstUserIncludes: 'docs/specs/greet.md' },
              structuredOutput: {
                role: 'planner',
                create: [
                  {
                    tempID: 't1',
                    title: 'Add a greeting',
                    body: 'Write greeting.txt.',
                    labels: [],
                    blockedBy: [],
                  },
                ],
                close: [],
                update: [],
              },
            },
          ],
        },
        // The reviewer's prompt also holds the work item section: its route comes before the implementor's.
        {
          name: 'reviewer',
          match: { firstUserIncludes: '## Revision #' },
          steps: [
            {
              expect: { firstUserIncludes: ['greeting.txt', '+hello'] },
              structuredOutput: {
                role: 'reviewer',
                review: { verdict: 'approve', summary: 'Looks right.', comments: [] },
              },
            },
          ],
        },
        {
          name: 'implementor',
          match: { firstUserIncludes: '## Work Item #1 — Add a greeting' },
          steps: [
            {
              content: [
                { type: 'text', text: 'Writing the greeting.' },
                {
                  type: 'tool_use',
                  name: 'exec_command',
                  input: { cmd: "printf 'hello\\n' > greeting.txt" },
                },
              ],
            },
            {
              structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Added greeting.txt' },
            },
          ],
        },
      ],
    });
    provider.control.addSpec({ filePath: 'docs/specs/greet.md', frontmatterStatus: 'approved' });
    const streamed: string[] = [];
    engine.onEvent((event) => {
      if (event.type !== 'implementorStarted') return;
      const stream = engine.getAgentStream(event.sessionID);
      void (async () => {
        for await (const chunk of stream ?? []) streamed.push(chunk);
      })();
    });
    await engine.start();
    await waitUntil(
      () => engine.getState().workItems['1']?.status === 'approved',
      60_000,
      'the item to be approved',
    );

    expect(server.report().problems).toEqual([]);
    expect(streamed).toContain('Writing the greeting.');
    const runs = Object.values(engine.getState().agentRuns);
    expect(runs.map((run) => [run.role, run.status, run.runtime])).toEqual([
      ['planner', 'completed', 'scripted'],
      ['implementor', 'completed', 'scripted'],
      ['reviewer', 'completed', 'scripted'],
    ]);
    expect(runs.every((run) => run.usage?.inputTokens !== null && run.logFilePath !== null)).toBe(true);
    expect(engine.getState().errors).toEqual([]);
    // Each run's CODEX_HOME went with it.
    expect(await readdir(join(repo.root, '.flotilla', 'codex', 'runs'))).toEqual([]);
  }, 90_000);
});
