/**
 * Provider limits end to end: the engine with the real Claude adapter (real SDK) against the scripted model
 * server. A usage limit parks the runtime (or its account) until the reset — the item waits, queued as
 * `parked`, and starts again by itself when the (shiftable) clock reaches it — and a run interrupted by a
 * limit is re-dispatched without counting as a failed attempt. With two accounts a usage limit fails over.
 */
import { describe, expect, it } from 'vitest';
import type { AccountRef, EngineEvent } from '../../src/domain/index.ts';
import { createEngine } from '../../src/engine/create-engine.ts';
import { createBashValidatorHook } from '../../src/guards/bash-validator/index.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { createModelServer } from '../../src/model-server/index.ts';
import type { ErrorSpec, ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { createInMemoryProvider } from '../../src/providers/in-memory/create-in-memory-provider.ts';
import { createClaudeAdapter } from '../../src/runtimes/claude/create-claude-adapter.ts';
import { createTempGitRepo } from '../../src/test-support/create-temp-git-repo.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { createShiftableClock } from '../support/create-shiftable-clock.ts';
import { buildAgentFile, trackEngineSetup } from '../support/track-engine-setup.ts';

const track = trackEngineSetup();

/** The implementor is refused once with `limit`, then writes a file and completes; the reviewer approves. */
function scenario(limit: ErrorSpec): ScenarioSpec {
  return {
    name: 'limited',
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
            error: { ...limit, times: 1 },
            content: [
              {
                type: 'tool_use',
                name: 'Write',
                input: { file_path: '{{cwd}}/greeting.txt', content: 'hello\n' },
              },
            ],
          },
          { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Added greeting.txt' } },
        ],
      },
    ],
  };
}

async function setUp(limit: ErrorSpec, accounts: AccountRef[] = []) {
  const repo = await createTempGitRepo();
  await repo.commit('base', {
    '.claude/agents/planner.md': buildAgentFile('Read'),
    '.claude/agents/implementor.md': buildAgentFile('Read, Write'),
    '.claude/agents/reviewer.md': buildAgentFile('Read'),
    'README.md': '# Sample\n',
  });
  const server = await createModelServer(scenario(limit));
  const provider = createInMemoryProvider({ initialPipelineStatus: 'success' });
  const clock = createShiftableClock();
  const logger = createRecordingLogger();
  const engine = createEngine({
    provider,
    logger,
    clock,
    accounts,
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 30,
    createRuntimeAdapters: () => {
      const adapter = createClaudeAdapter({
        repoRoot: repo.root,
        defaultBranch: 'main',
        contextPaths: [],
        bashValidatorHook: createBashValidatorHook(),
        logger,
        setupCommand: 'none',
        stateDir: `${repo.root}/.flotilla/claude`,
        maxAgentDuration: 120,
        logging: { agentSessions: true, logsDir: `${repo.root}/.flotilla/logs` },
        baseEnv: { ...process.env, WORK_KEY: 'key-of-work', SPARE_KEY: 'key-of-spare' },
        // The CLI's own retries of 429/529 would only slow the test down.
        extraEnv: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key', CLAUDE_CODE_MAX_RETRIES: '0' },
        accounts: { work: { ANTHROPIC_API_KEY: '$WORK_KEY' }, spare: { ANTHROPIC_API_KEY: '$SPARE_KEY' } },
      });
      return { planner: adapter, implementor: adapter, reviewer: adapter };
    },
  });
  const events: EngineEvent[] = [];
  engine.onEvent((event) => events.push(event));
  track({ engine, provider, server, repo });
  provider.control.addWorkItem({ title: 'Add a greeting', body: 'Objective: greet.', status: 'pending' });
  await engine.start();
  return { engine, server, clock, events };
}

describe('engine: provider limits park instead of failing', () => {
  it('a usage limit with a reset time parks the runtime until then, and the item resumes by itself', async () => {
    const resetsAt = Math.floor(Date.now() / 1000) + 3600;
    const { engine, server, clock } = await setUp({
      status: 429,
      message: `Claude AI usage limit reached|${resetsAt}`,
    });
    await waitUntil(
      () => engine.getState().dispatchQueue.some((entry) => entry.reason === 'parked'),
      60_000,
      'the retry to wait for the parking',
    );
    const state = engine.getState();
    expect(state.parkings.claude).toMatchObject({ reason: 'usage-limit', until: resetsAt * 1000, account: null });
    expect(state.dispatchQueue[0]).toMatchObject({ reason: 'parked', notBefore: resetsAt * 1000 });
    expect(Object.values(state.agentRuns).map((run) => [run.status, run.failureReason])).toEqual([
      ['failed', 'usage-limit'],
    ]);
    // Not a failed attempt: no failure record, no backoff, the item is not parked as blocked.
    expect(state.failures).toEqual({});
    expect(state.workItems['1']?.status).not.toBe('blocked');

    clock.advance(resetsAt * 1000 - clock.now());
    await waitUntil(() => engine.getState().workItems['1']?.status === 'approved', 60_000, 'approval');
    expect(engine.getState().parkings).toEqual({});
    expect(server.report().problems).toEqual([]);
  });

  it('a 529 (no reset time) parks the runtime for a backoff, then the run is dispatched again', async () => {
    const { engine, clock } = await setUp({ status: 529, shouldRetry: false });
    await waitUntil(
      () => engine.getState().dispatchQueue.some((entry) => entry.reason === 'parked'),
      60_000,
      'the retry to wait for the parking',
    );
    const parking = engine.getState().parkings.claude;
    expect(parking).toMatchObject({ reason: 'overloaded', hits: 1 });
    expect(engine.getState().failures).toEqual({});
    clock.advance((parking?.until ?? 0) - clock.now());
    await waitUntil(() => engine.getState().workItems['1']?.status === 'approved', 60_000, 'approval');
  });

  it('fails over to the least recently used account on a usage limit, and the run completes', async () => {
    const { engine, server, events } = await setUp({ status: 429, message: "You've hit your limit" }, [
      { name: 'work', runtime: 'claude' },
      { name: 'spare', runtime: 'claude' },
    ]);
    await waitUntil(() => engine.getState().workItems['1']?.status === 'approved', 60_000, 'approval');
    const runs = Object.values(engine.getState().agentRuns);
    expect(runs.map((run) => [run.role, run.account, run.failureReason ?? null])).toEqual([
      ['implementor', 'work', 'usage-limit'],
      ['implementor', 'spare', null],
      ['reviewer', 'spare', null],
    ]);
    const switched = events.filter((event) => event.type === 'accountSwitched');
    expect(switched).toMatchObject([{ runtime: 'claude', from: 'work', to: 'spare', sessionID: runs[1]?.sessionID }]);
    expect(engine.getState().parkings['claude/account:work']).toMatchObject({ reason: 'usage-limit' });
    expect(engine.getState().failures).toEqual({});
    const keys = server.requests.filter((request) => request.kind === 'step').map((r) => r.headers['x-api-key']);
    expect(keys[0]).toBe('key-of-work');
    expect(new Set(keys.slice(1))).toEqual(new Set(['key-of-spare']));
  });
});
