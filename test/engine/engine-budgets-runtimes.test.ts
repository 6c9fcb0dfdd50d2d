/**
 * Budgets on the Codex and CLI runtimes' live usage: a per-run, per-item or daily cap stops a long session
 * mid-run, as test/engine/engine-budgets.test.ts shows for Claude. Codex: the real codex binary against the
 * scripted Responses endpoint, each request 32,000 input tokens of `gpt-5` ($1.25 per million: $0.04), its
 * live usage read from the thread's rollout. CLI: the `claude` preset on the fake agent CLI, each request
 * 10,000 input tokens of `claude-opus-5` ($4 per million: $0.04) reported in claude's stream-json shapes.
 * The ledger is a real SQLite file written by persistence.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BudgetCaps } from '../../src/domain/index.ts';
import type { Engine } from '../../src/engine/create-engine.ts';
import type { RuntimeAdapter } from '../../src/engine/runtime-contract/index.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { createModelServer, type ModelServer } from '../../src/model-server/index.ts';
import { findClaudeModelPrice } from '../../src/runtimes/claude/claude-prices.ts';
import { createCliRuntime } from '../../src/runtimes/cli/create-cli-runtime.ts';
import { createCodexRuntime } from '../../src/runtimes/codex/create-codex-runtime.ts';
import type { Database, EngineStatePersistence } from '../../src/storage/index.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import type { FakeAgentStep } from '../support/cli-runtime/fake-agent-cli.ts';
import { FAKE_AGENT_PROGRAM } from '../support/cli-runtime-fixture.ts';
import { createBudgetedEngine } from '../support/create-budgeted-engine.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
} from '../support/in-memory-provider/create-in-memory-provider.ts';
import { createTempGitRepo, type TempGitRepo } from '../support/shared/create-temp-git-repo.ts';
import { createTestSandbox } from '../support/test-sandbox.ts';

const REQUEST_COST = 0.04;
const STEPS = 10;
const TIMEOUT = 120_000;
const completed = { role: 'implementor', outcome: 'completed', summary: 'Done.' };

interface World {
  repo: TempGitRepo;
  dir: string;
  server: ModelServer | null;
  db: Database | null;
  engine: Engine | null;
}
let world: World | null = null;

afterEach(async () => {
  if (world === null) return;
  await world.engine?.stop();
  world.db?.close();
  await world.server?.close();
  await world.repo.cleanup();
  await rm(world.dir, { recursive: true, force: true });
  world = null;
});

/** A codex session of STEPS commands (each after a $0.04 request), then its result: STEPS + 1 requests. */
async function codexRuntime(current: World): Promise<RuntimeAdapter> {
  current.server = await createModelServer({
    routes: [
      {
        name: 'implementor',
        steps: [
          ...Array.from({ length: STEPS }, (_, index) => ({
            content: [
              { type: 'tool_use' as const, name: 'exec_command', input: { cmd: `echo step ${index}` } },
            ],
            usage: { input_tokens: 32_000, output_tokens: 0 },
          })),
          { structuredOutput: completed, usage: { input_tokens: 32_000, output_tokens: 0 } },
        ],
      },
    ],
  });
  return createCodexRuntime({
    sandbox: createTestSandbox(),
    repoRoot: current.repo.root,
    defaultBranch: 'main',
    logger: createRecordingLogger(),
    setupCommand: 'none',
    stateDir: join(current.repo.root, '.flotilla', 'codex'),
    model: 'gpt-5',
    provider: { id: 'flotilla-scripted', baseUrl: `${current.server.url}/v1`, envKey: 'SCRIPTED_KEY' },
    baseEnv: { ...process.env, SCRIPTED_KEY: 'dummy' },
    maxAgentDuration: 100,
    logging: { agentSessions: false, logsDir: join(current.dir, 'logs') },
  });
}

/** A claude CLI session (the fake agent) of STEPS $0.04 requests with a little work between them. */
async function cliRuntime(current: World): Promise<RuntimeAdapter> {
  const steps: FakeAgentStep[] = [
    ...Array.from({ length: STEPS }, (): FakeAgentStep[] => [
      { request: { model: 'claude-opus-5', inputTokens: 10_000, outputTokens: 0, costUSD: REQUEST_COST } },
      { sleepMs: 150 },
    ]).flat(),
    { write: { path: 'done.txt', content: 'done\n' } },
    { signal: { status: 'done', result: { outcome: 'completed', summary: 'Done.' } } },
  ];
  const scriptPath = join(current.dir, 'script.json');
  await writeFile(scriptPath, JSON.stringify({ rounds: [{ steps }] }));
  return createCliRuntime({
    repoRoot: current.repo.root,
    defaultBranch: 'main',
    logger: createRecordingLogger(),
    stateDir: join(current.dir, 'state'),
    preset: 'claude',
    program: FAKE_AGENT_PROGRAM,
    setupCommand: 'none',
    maxAgentDuration: 100,
    logging: { agentSessions: false, logsDir: join(current.dir, 'logs') },
    baseEnv: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      FAKE_AGENT_SCRIPT: scriptPath,
      ANTHROPIC_API_KEY: 'sk-ant-test',
    },
    passThroughEnv: ['FAKE_AGENT_SCRIPT'],
    findModelPrice: findClaudeModelPrice,
  });
}

const RUNTIMES = [
  { name: 'codex', build: codexRuntime, model: 'gpt-5' },
  { name: 'cli:claude', build: cliRuntime, model: 'claude-opus-5' },
] as const;

const CAPS: { scope: 'run' | 'item' | 'day'; caps: Partial<BudgetCaps>; message: string }[] = [
  { scope: 'run', caps: { perRunUsd: 0.1 }, message: 'per-run cap of $0.10' },
  { scope: 'item', caps: { perItemUsd: 0.1 }, message: "work item's cap of $0.10" },
  { scope: 'day', caps: { dailyUsd: 0.1 }, message: "day's cap of $0.10" },
];

async function start(
  runtime: (typeof RUNTIMES)[number],
  caps: Partial<BudgetCaps>,
): Promise<{
  engine: Engine;
  provider: InMemoryProvider;
  persistence: EngineStatePersistence;
  world: World;
}> {
  const repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# Sample\n' });
  const current: World = {
    repo,
    dir: await mkdtemp(join(tmpdir(), 'flotilla-budget-runtimes-')),
    server: null,
    db: null,
    engine: null,
  };
  world = current;
  const adapter = await runtime.build(current);
  const provider = createInMemoryProvider({ initialPipelineStatus: 'success' });
  const { engine, persistence, db } = createBudgetedEngine({
    dbPath: join(current.dir, 'flotilla.db'),
    provider,
    caps,
    logger: createRecordingLogger(),
    adapter: () => adapter,
  });
  current.db = db;
  current.engine = engine;
  return { engine, provider, persistence, world: current };
}

describe.each(RUNTIMES)('budgets on the $name runtime’s live usage', (runtime) => {
  it.each(CAPS)(
    'a $scope cap stops a long session mid-run (reason budget, not an attempt); the ledger row is right',
    async ({ scope, caps, message }) => {
      const { engine, provider, persistence } = await start(runtime, caps);
      const item = provider.control.addWorkItem({ title: 'Long task', body: 'Work.', status: 'pending' });
      await engine.start();
      await waitUntil(
        () =>
          Object.values(engine.getState().agentRuns).some((agentRun) => agentRun.failureReason === 'budget'),
        TIMEOUT,
        'the budget stop',
      );
      const [run] = Object.values(engine.getState().agentRuns);
      expect(run?.error).toContain(message);
      expect(run?.runtime).toBe(runtime.name);
      // Crossed at the third request ($0.12): the session did not run to its end ($0.40). The agent may already
      // have sent its next request when the crossing usage arrives, so one more can be counted.
      const spent = run?.usage?.costUSD ?? Number.NaN;
      expect(spent).toBeGreaterThanOrEqual(0.1);
      expect(spent).toBeLessThanOrEqual(0.1 + 2 * REQUEST_COST + 1e-9);
      if (world?.server) {
        expect(world.server.requests.filter((request) => request.kind === 'step').length).toBeLessThan(
          STEPS + 1,
        );
      }
      expect(engine.getState().failures).toEqual({});
      if (scope === 'day') {
        await waitUntil(() => engine.getState().budgetPause !== null, TIMEOUT, 'the pause');
        expect(engine.getState().budgetPause).toMatchObject({ period: 'day', capUSD: 0.1 });
      } else {
        await waitUntil(() => engine.getState().workItems[item.id]?.status === 'blocked', TIMEOUT, 'blocked');
      }
      const entry = persistence.ledger.get(run?.sessionID ?? '');
      expect(entry).toMatchObject({
        role: 'implementor',
        workItemID: item.id,
        runtime: runtime.name,
        model: runtime.model,
        account: null,
        ended: true,
        budgetStop: scope,
      });
      expect(entry?.costUSD).toBeCloseTo(spent, 6);
    },
    TIMEOUT,
  );
});
