/**
 * Parking follows the runtime a run really used. Two Claude runtimes through the real SDK, each against its
 * own scripted model server: the roles run on `claude`, and a work item labelled `runtime:claude-b` runs on
 * `claude-b`, whose server answers with a usage limit. The limit parks `claude-b` only: the labelled item
 * waits for its reset (no second run), while an unlabelled item goes on and is approved on `claude`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create-engine.ts';
import type { RuntimeAdapter } from '../../src/engine/runtime-contract/index.ts';
import { createBashValidatorHook } from '../../src/guards/bash-validator/index.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { createModelServer, type ModelServer } from '../../src/model-server/index.ts';
import { createClaudeAdapter } from '../../src/runtimes/claude/create-claude-adapter.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { createShiftableClock } from '../support/create-shiftable-clock.ts';
import { createInMemoryProvider } from '../support/in-memory-provider/create-in-memory-provider.ts';
import { createTempGitRepo } from '../support/shared/create-temp-git-repo.ts';
import { buildAgentFile, trackEngineSetup } from '../support/track-engine-setup.ts';

const track = trackEngineSetup();
let limitedServer: ModelServer | null = null;
afterEach(async () => {
  await limitedServer?.close();
  limitedServer = null;
});

describe('engine: a limit parks the runtime the run used', () => {
  it('a label-chosen runtime is parked alone; items on the role runtime still dispatch', async () => {
    const repo = await createTempGitRepo();
    await repo.commit('base', {
      '.claude/agents/planner.md': buildAgentFile('Read'),
      '.claude/agents/implementor.md': buildAgentFile('Read, Write'),
      '.claude/agents/reviewer.md': buildAgentFile('Read'),
      'README.md': '# Sample\n',
    });
    const server = await createModelServer({
      name: 'fine',
      routes: [
        {
          name: 'reviewer',
          match: { firstUserIncludes: '## Revision #' },
          steps: [
            {
              structuredOutput: {
                role: 'reviewer',
                review: { verdict: 'approve', summary: 'Fine.', comments: [] },
              },
            },
          ],
        },
        {
          name: 'implementor',
          steps: [
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'Write',
                  input: { file_path: '{{cwd}}/greeting.txt', content: 'hello\n' },
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
    const resetsAt = Math.floor(Date.now() / 1000) + 3600;
    limitedServer = await createModelServer({
      name: 'limited',
      routes: [
        {
          name: 'any',
          steps: [{ error: { status: 429, message: `Claude AI usage limit reached|${resetsAt}` } }],
        },
      ],
    });
    const provider = createInMemoryProvider({ initialPipelineStatus: 'success' });
    provider.control.addWorkItem({
      title: 'Greet elsewhere',
      labels: ['runtime:claude-b'],
      status: 'pending',
    });
    provider.control.addWorkItem({ title: 'Add a greeting', status: 'pending' });

    const logger = createRecordingLogger();
    const claudeOn = (name: string, url: string): RuntimeAdapter =>
      createClaudeAdapter({
        runtime: name,
        repoRoot: repo.root,
        defaultBranch: 'main',
        contextPaths: [],
        bashValidatorHook: createBashValidatorHook(),
        logger,
        setupCommand: 'none',
        stateDir: `${repo.root}/.flotilla/${name}`,
        maxAgentDuration: 120,
        logging: { agentSessions: false, logsDir: `${repo.root}/.flotilla/logs` },
        extraEnv: { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'test-key', CLAUDE_CODE_MAX_RETRIES: '0' },
      });
    const claude = claudeOn('claude', server.url);
    const claudeB = claudeOn('claude-b', limitedServer.url);
    const choices: Record<string, RuntimeAdapter> = { claude, 'claude-b': claudeB };
    const engine = createEngine({
      provider,
      logger,
      clock: createShiftableClock(),
      pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
      shutdownTimeout: 30,
      createRuntimeAdapters: () => ({
        planner: claude,
        implementor: claude,
        reviewer: claude,
        choices: { names: Object.keys(choices), get: (name) => choices[name] ?? null },
      }),
    });
    track({ engine, provider, server, repo });
    await engine.start();

    await waitUntil(
      () =>
        engine.getState().workItems['2']?.status === 'approved' &&
        engine.getState().parkings['claude-b'] !== undefined,
      90_000,
      'the unlabelled item approved and claude-b parked',
    );
    const state = engine.getState();
    expect(Object.keys(state.parkings)).toEqual(['claude-b']);
    expect(state.parkings['claude-b']).toMatchObject({ reason: 'usage-limit', until: resetsAt * 1000 });
    const labelledRuns = Object.values(state.agentRuns).filter(
      (run) => run.role === 'implementor' && run.workItemID === '1',
    );
    expect(labelledRuns.map((run) => [run.runtime, run.failureReason])).toEqual([
      ['claude-b', 'usage-limit'],
    ]);
    expect(state.dispatchQueue).toMatchObject([
      {
        command: { type: 'requestImplementorRun', workItemID: '1' },
        reason: 'parked',
        notBefore: resetsAt * 1000,
      },
    ]);
    expect(state.failures).toEqual({});
    expect(limitedServer.requests.filter((request) => request.kind === 'step')).toHaveLength(1);
  }, 120_000);
});
