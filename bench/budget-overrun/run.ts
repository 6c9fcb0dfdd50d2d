/**
 * Budget overrun: implementor sessions whose per-request cost grows (each request sends more input tokens,
 * like a growing conversation) run through the engine and the real Claude adapter against the scripted
 * model server, under a per-run, per-item or daily cap. What a session really spent is computed on the
 * server side (every request the server answered, priced with the model's price), not from what the client
 * reported; the overrun (spent − cap) is reported as a multiple of the cost of the request that crossed the
 * cap. Goal: ≤ 1. `DELAY_MS` (default 0,300) sets each reply's latency: slower replies give a cancel more
 * time to land before the next request.
 * Run: npm run bench:budget-overrun
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BudgetCaps, NO_BUDGET_CAPS } from '../../src/domain/index.ts';
import { createEngine } from '../../src/engine/create-engine.ts';
import { createBashValidatorHook } from '../../src/guards/bash-validator/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { createModelServer, type ModelServer } from '../../src/model-server/index.ts';
import { createInMemoryProvider } from '../../src/providers/in-memory/create-in-memory-provider.ts';
import { findClaudeModelPrice } from '../../src/runtimes/claude/claude-prices.ts';
import { createClaudeAdapter } from '../../src/runtimes/claude/create-claude-adapter.ts';
import { isRecord } from '../../src/shared/is-record.ts';
import { createEngineStatePersistence, openDatabase } from '../../src/storage/index.ts';
import { createTempGitRepo } from '../../src/test-support/create-temp-git-repo.ts';

const STEPS = 30;
const DELAYS = (process.env.DELAY_MS ?? '0,300').split(',').map(Number);

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
  { name: 'per-run $0.50 (SDK maxBudgetUsd + Flotilla)', caps: { perRunUsd: 0.5 }, cap: 0.5 },
  { name: 'per-item $0.50 (Flotilla only)', caps: { perItemUsd: 0.5 }, cap: 0.5 },
  { name: 'daily $0.75 (Flotilla only)', caps: { dailyUsd: 0.75 }, cap: 0.75 },
];

interface Outcome {
  spent: number;
  requests: number;
  crossing: number;
  overrunMultiple: number;
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
function serverSideCosts(server: ModelServer): number[] {
  return server.requests
    .filter((request) => request.kind === 'step' && request.status === 200 && !request.aborted)
    .map((request) => {
      const body = isRecord(request.body) ? request.body : {};
      const model = typeof body.model === 'string' ? body.model : '';
      const price = findClaudeModelPrice(model);
      if (price === null) throw new Error(`no price for model ${model}`);
      const step = request.stepIndex ?? 0;
      const tokens = step < STEPS ? currentGrowth.tokens(step) : currentGrowth.tokens(STEPS);
      return (tokens * price.input) / 1_000_000;
    });
}

let currentGrowth: Growth = GROWTHS[0] as Growth;

async function runOne(
  growth: Growth,
  caps: Partial<BudgetCaps>,
  cap: number,
  delayMs: number,
): Promise<Outcome> {
  currentGrowth = growth;
  const repo = await createTempGitRepo();
  await repo.commit('base', {
    '.claude/agents/implementor.md':
      '---\ndescription: bench\ntools: Read, Write, Edit, Bash\n---\nYou implement.\n',
    '.claude/agents/reviewer.md': '---\ndescription: bench\ntools: Read\n---\nYou review.\n',
    '.claude/agents/planner.md': '---\ndescription: bench\ntools: Read\n---\nYou plan.\n',
  });
  const server = await createModelServer(scenario(growth, delayMs));
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
    createRuntimeAdapters: () => {
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
      return { planner: adapter, implementor: adapter, reviewer: adapter };
    },
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
  const costs = serverSideCosts(server);
  await server.close();
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
  let worst = 0;
  console.log(
    'budget overrun: spent beyond the cap, as a multiple of the cost of the request that crossed it',
  );
  for (const delayMs of DELAYS) {
    for (const growth of GROWTHS) {
      for (const { name, caps, cap } of CAPS) {
        const outcome = await runOne(growth, caps, cap, delayMs);
        worst = Math.max(worst, outcome.overrunMultiple);
        console.log(
          `${`delay ${delayMs}ms`.padEnd(12)} ${growth.name.padEnd(10)} ${name.padEnd(44)} ` +
            `requests ${String(outcome.requests).padStart(2)}  spent $${outcome.spent.toFixed(4)}  ` +
            `crossing request $${outcome.crossing.toFixed(4)}  overrun ${outcome.overrunMultiple.toFixed(2)}×`,
        );
      }
    }
  }
  console.log(`worst overrun: ${worst.toFixed(2)}× one request's cost (goal ≤ 1)`);
}

await main();
