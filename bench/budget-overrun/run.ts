/**
 * Budget overrun: implementor sessions whose per-request cost grows (each request sends more input tokens,
 * like a growing conversation) run through the engine under a per-run, per-item or daily cap, on each
 * runtime: the real Claude adapter and the real codex binary against the scripted model server (Messages /
 * Responses), and the CLI runtime's `claude` preset on the fake agent CLI. What a session really spent is
 * counted outside Flotilla — every request the server answered (Claude, Codex) or the fake agent started
 * (CLI), priced with the model's price — not from what the runtime reported; the overrun (spent − cap) is
 * reported as a multiple of the cost of the request that crossed the cap. Goal: ≤ 1. `DELAY_MS` (default
 * 0,300) sets each reply's latency (the fake agent's pause between requests): slower replies give a cancel
 * more time to land before the next request. `RUNTIMES` (default claude,codex,cli) picks the runtimes.
 * Run: npm run bench:budget-overrun
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BudgetCaps, NO_BUDGET_CAPS } from '../../src/domain/index.ts';
import { createEngine } from '../../src/engine/create-engine.ts';
import type { RuntimeAdapter } from '../../src/engine/runtime-contract/index.ts';
import { createBashValidatorHook } from '../../src/guards/bash-validator/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { createModelServer, type ModelServer } from '../../src/model-server/index.ts';
import { findClaudeModelPrice } from '../../src/runtimes/claude/claude-prices.ts';
import { createClaudeAdapter } from '../../src/runtimes/claude/create-claude-adapter.ts';
import { createCliRuntime } from '../../src/runtimes/cli/create-cli-runtime.ts';
import { CODEX_MODEL_PRICES } from '../../src/runtimes/codex/codex-prices.ts';
import { createCodexRuntime } from '../../src/runtimes/codex/create-codex-runtime.ts';
import { isRecord } from '../../src/shared/is-record.ts';
import { createEngineStatePersistence, openDatabase } from '../../src/storage/index.ts';
import type { FakeAgentStep } from '../../test/support/cli-runtime/fake-agent-cli.ts';
import { FAKE_AGENT_PROGRAM } from '../../test/support/cli-runtime-fixture.ts';
import { createInMemoryProvider } from '../../test/support/in-memory-provider/create-in-memory-provider.ts';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';

const STEPS = 30;
const DELAYS = (process.env.DELAY_MS ?? '0,300').split(',').map(Number);
const RUNTIME_NAMES = (process.env.RUNTIMES ?? 'claude,codex,cli').split(',');
/** codex's model here: priced by codex-prices.ts ($1.25 per million input tokens). */
const CODEX_MODEL = 'gpt-5';
/** What the fake agent reports as claude's model: claude-prices.ts ($4 per million input tokens). */
const CLI_MODEL = 'claude-opus-5';

interface Growth {
  name: string;
  /** Input tokens of request `index` (0-based). */
  tokens: (index: number) => number;
}

const GROWTHS: Growth[] = [
  { name: 'linear', tokens: (index) => 5_000 * (index + 1) },
  { name: 'geometric', tokens: (index) => Math.round(2_000 * 1.25 ** index) },
];

const CAPS: { name: string; caps: Partial<BudgetCaps>; cap: number }[] = [
  // Claude: the SDK's maxBudgetUsd and Flotilla; Codex and CLI: Flotilla only.
  { name: 'per-run $0.50', caps: { perRunUsd: 0.5 }, cap: 0.5 },
  { name: 'per-item $0.50', caps: { perItemUsd: 0.5 }, cap: 0.5 },
  { name: 'daily $0.75', caps: { dailyUsd: 0.75 }, cap: 0.75 },
];

interface Outcome {
  spent: number;
  requests: number;
  crossing: number;
  overrunMultiple: number;
}

/** One runtime under the bench: its adapter for a run, and what the run really spent, request by request. */
interface BenchRuntime {
  adapter: RuntimeAdapter;
  /** The cost of every request the model side answered (or the fake agent started), in order. */
  spentCosts(): Promise<number[]>;
  close(): Promise<void>;
}

interface RuntimeFactory {
  name: string;
  build(repo: TempGitRepo, growth: Growth, delayMs: number): Promise<BenchRuntime>;
}

function scenario(growth: Growth, delayMs: number) {
  return {
    name: 'growing',
    routes: [
      {
        name: 'implementor',
        steps: [
          ...Array.from({ length: STEPS }, (_, index) => ({
            content: [
              {
                type: 'tool_use' as const,
                name: 'Bash',
                input: { command: `echo ${index}`, description: 'Step' },
              },
            ],
            usage: { input_tokens: growth.tokens(index), output_tokens: 0 },
            delayMs,
          })),
          {
            structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Done.' },
            usage: { input_tokens: growth.tokens(STEPS), output_tokens: 0 },
          },
        ],
      },
    ],
  };
}

/** What the server really answered, priced per request: the spend whatever the client reported. */
function serverSideCosts(server: ModelServer, growth: Growth): number[] {
  return server.requests
    .filter((request) => request.kind === 'step' && request.status === 200 && !request.aborted)
    .map((request) => {
      const body = isRecord(request.body) ? request.body : {};
      const model = typeof body.model === 'string' ? body.model : '';
      const inputPrice = findClaudeModelPrice(model)?.input ?? CODEX_MODEL_PRICES[model]?.input;
      if (inputPrice === undefined) throw new Error(`no price for model ${model}`);
      const step = request.stepIndex ?? 0;
      const tokens = step < STEPS ? growth.tokens(step) : growth.tokens(STEPS);
      return (tokens * inputPrice) / 1_000_000;
    });
}

const claudeRuntime: RuntimeFactory = {
  name: 'claude',
  async build(repo, growth, delayMs) {
    await repo.commit('agents', {
      '.claude/agents/implementor.md':
        '---\ndescription: bench\ntools: Read, Write, Edit, Bash\n---\nYou implement.\n',
      '.claude/agents/reviewer.md': '---\ndescription: bench\ntools: Read\n---\nYou review.\n',
      '.claude/agents/planner.md': '---\ndescription: bench\ntools: Read\n---\nYou plan.\n',
    });
    const server = await createModelServer(scenario(growth, delayMs));
    const adapter = createClaudeAdapter({
      repoRoot: repo.root,
      defaultBranch: 'main',
      contextPaths: [],
      bashValidatorHook: createBashValidatorHook(),
      logger: silentLogger,
      setupCommand: 'none',
      stateDir: `${repo.root}/.flotilla/claude`,
      maxAgentDuration: 300,
      logging: { agentSessions: false, logsDir: `${repo.root}/.flotilla/logs` },
      extraEnv: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' },
    });
    return { adapter, spentCosts: async () => serverSideCosts(server, growth), close: () => server.close() };
  },
};

const codexRuntime: RuntimeFactory = {
  name: 'codex',
  async build(repo, growth, delayMs) {
    const server = await createModelServer({
      name: 'growing',
      routes: [
        {
          name: 'implementor',
          steps: [
            ...Array.from({ length: STEPS }, (_, index) => ({
              content: [{ type: 'tool_use' as const, name: 'exec_command', input: { cmd: `echo ${index}` } }],
              usage: { input_tokens: growth.tokens(index), output_tokens: 0 },
              delayMs,
            })),
            {
              structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Done.' },
              usage: { input_tokens: growth.tokens(STEPS), output_tokens: 0 },
            },
          ],
        },
      ],
    });
    const adapter = createCodexRuntime({
      repoRoot: repo.root,
      defaultBranch: 'main',
      logger: silentLogger,
      setupCommand: 'none',
      stateDir: join(repo.root, '.flotilla', 'codex'),
      model: CODEX_MODEL,
      provider: { id: 'flotilla-scripted', baseUrl: `${server.url}/v1`, envKey: 'BENCH_SCRIPTED_KEY' },
      baseEnv: { ...process.env, BENCH_SCRIPTED_KEY: 'dummy' },
      maxAgentDuration: 300,
      logging: { agentSessions: false, logsDir: join(repo.root, '.flotilla', 'logs') },
    });
    return { adapter, spentCosts: async () => serverSideCosts(server, growth), close: () => server.close() };
  },
};

/**
 * The CLI runtime's `claude` preset on the fake agent CLI: before each request the agent appends its cost
 * to a file of its own (the model bills a request once it is sent), then reports it in claude's stream-json
 * shapes, then pauses `delayMs` (the next reply's latency).
 */
const cliRuntime: RuntimeFactory = {
  name: 'cli',
  async build(repo, growth, delayMs) {
    const dir = await mkdtemp(join(tmpdir(), 'flotilla-bench-cli-'));
    const spentFile = join(dir, 'spent.txt');
    await writeFile(spentFile, '');
    const price = findClaudeModelPrice(CLI_MODEL);
    if (price === null) throw new Error(`no price for ${CLI_MODEL}`);
    const costOf = (index: number) => (growth.tokens(index) * price.input) / 1_000_000;
    const steps: FakeAgentStep[] = [
      ...Array.from({ length: STEPS }, (_, index): FakeAgentStep[] => [
        { run: `echo ${costOf(index)} >> ${spentFile}` },
        {
          request: {
            model: CLI_MODEL,
            inputTokens: growth.tokens(index),
            outputTokens: 0,
            costUSD: costOf(index),
          },
        },
        { sleepMs: Math.max(delayMs, 1) },
      ]).flat(),
      { signal: { status: 'done', result: { outcome: 'blocked', summary: 'Done.' } } },
    ];
    const scriptPath = join(dir, 'script.json');
    await writeFile(scriptPath, JSON.stringify({ rounds: [{ steps }] }));
    const adapter = createCliRuntime({
      repoRoot: repo.root,
      defaultBranch: 'main',
      logger: silentLogger,
      stateDir: join(dir, 'state'),
      preset: 'claude',
      program: FAKE_AGENT_PROGRAM,
      setupCommand: 'none',
      maxAgentDuration: 300,
      logging: { agentSessions: false, logsDir: join(dir, 'logs') },
      baseEnv: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        FAKE_AGENT_SCRIPT: scriptPath,
        ANTHROPIC_API_KEY: 'bench',
      },
      passThroughEnv: ['FAKE_AGENT_SCRIPT'],
      findModelPrice: findClaudeModelPrice,
    });
    return {
      adapter,
      async spentCosts() {
        const text = await readFile(spentFile, 'utf8');
        return text.split('\n').filter(Boolean).map(Number);
      },
      close: () => rm(dir, { recursive: true, force: true }),
    };
  },
};

const RUNTIMES = [claudeRuntime, codexRuntime, cliRuntime].filter((runtime) =>
  RUNTIME_NAMES.includes(runtime.name),
);

async function runOne(
  runtime: RuntimeFactory,
  growth: Growth,
  caps: Partial<BudgetCaps>,
  cap: number,
  delayMs: number,
): Promise<Outcome> {
  const repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# bench\n' });
  const bench = await runtime.build(repo, growth, delayMs);
  const dbDir = await mkdtemp(join(tmpdir(), 'flotilla-bench-budget-'));
  const db = openDatabase(join(dbDir, 'flotilla.db'));
  const persistence = createEngineStatePersistence(db);
  const provider = createInMemoryProvider({ initialPipelineStatus: 'success' });
  const engine = createEngine({
    provider,
    logger: silentLogger,
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 30,
    budget: { caps: { ...NO_BUDGET_CAPS, ...caps }, ledger: persistence.ledger, estimateFloorUsd: 0.001 },
    createRuntimeAdapters: () => ({
      planner: bench.adapter,
      implementor: bench.adapter,
      reviewer: bench.adapter,
    }),
  });
  engine.onEvent((event, state) => persistence.record(event, state));
  provider.control.addWorkItem({ title: 'Grow', body: 'Work.', status: 'pending' });
  await engine.start();
  const deadline = Date.now() + 240_000;
  // Ended: the item parked (per run, per item) or dispatch paused (daily), after the first run ended.
  while (Date.now() < deadline) {
    const state = engine.getState();
    const ended = Object.values(state.agentRuns).some(
      (run) => run.status !== 'running' && run.status !== 'requested',
    );
    if (ended && (state.budgetPause !== null || state.workItems['1']?.status === 'blocked')) break;
    if (Object.values(state.agentRuns).some((run) => run.status === 'completed')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await engine.stop();
  // Answers still streaming when the run was stopped are counted: they were billed.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const costs = await bench.spentCosts();
  await bench.close();
  db.close();
  await repo.cleanup();
  await rm(dbDir, { recursive: true, force: true });
  let spent = 0;
  let crossing = 0;
  for (const cost of costs) {
    if (spent < cap && spent + cost >= cap) crossing = cost;
    spent += cost;
  }
  const overrun = Math.max(0, spent - cap);
  return { spent, requests: costs.length, crossing, overrunMultiple: crossing > 0 ? overrun / crossing : 0 };
}

async function main(): Promise<void> {
  const worst = new Map<string, number>();
  console.log(
    'budget overrun: spent beyond the cap, as a multiple of the cost of the request that crossed it',
  );
  for (const runtime of RUNTIMES) {
    for (const delayMs of DELAYS) {
      for (const growth of GROWTHS) {
        for (const { name, caps, cap } of CAPS) {
          const outcome = await runOne(runtime, growth, caps, cap, delayMs);
          worst.set(runtime.name, Math.max(worst.get(runtime.name) ?? 0, outcome.overrunMultiple));
          console.log(
            `${runtime.name.padEnd(7)} ${`delay ${delayMs}ms`.padEnd(12)} ${growth.name.padEnd(10)} ${name.padEnd(18)} ` +
              `requests ${String(outcome.requests).padStart(2)}  spent $${outcome.spent.toFixed(4)}  ` +
              `crossing request $${outcome.crossing.toFixed(4)}  overrun ${outcome.overrunMultiple.toFixed(2)}×`,
          );
        }
      }
    }
  }
  for (const [name, multiple] of worst) {
    console.log(`worst overrun on ${name}: ${multiple.toFixed(2)}× one request's cost (goal ≤ 1)`);
  }
}

await main();
