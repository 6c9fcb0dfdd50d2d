/**
 * Budgets through the real SDK: the engine drives the real Claude adapter against the scripted model server,
 * whose per-request token counts make each request cost exactly $0.04 at the CLI's price for its default
 * model ($4 per million input tokens). The ledger is a real SQLite file written by persistence.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BudgetCaps } from '../../src/domain/index.ts';
import type { Engine } from '../../src/engine/create-engine.ts';
import type { Clock } from '../../src/engine/engine-config.ts';
import { createBashValidatorHook } from '../../src/guards/bash-validator/index.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { createModelServer, type ModelServer } from '../../src/model-server/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { createClaudeAdapter } from '../../src/runtimes/claude/create-claude-adapter.ts';
import type { Database, EngineStatePersistence } from '../../src/storage/index.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { createBudgetedEngine } from '../support/create-budgeted-engine.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
} from '../support/in-memory-provider/create-in-memory-provider.ts';
import { createTempGitRepo, type TempGitRepo } from '../support/shared/create-temp-git-repo.ts';
import { buildAgentFile } from '../support/track-engine-setup.ts';

/** 10,000 input tokens at $4 per million: $0.04 a request. */
const REQUEST_COST = 0.04;
const COSTLY = { input_tokens: 10_000, output_tokens: 0 };
const TIMEOUT = 180_000;

/** `steps` Bash requests, then the structured output: steps + 1 requests in all. */
function session(steps: number, finish: Record<string, unknown>) {
  return [
    ...Array.from({ length: steps }, (_, index) => ({
      content: [
        {
          type: 'tool_use' as const,
          name: 'Bash',
          input: { command: `echo step ${index}`, description: 'Step' },
        },
      ],
      usage: COSTLY,
    })),
    { structuredOutput: finish, usage: COSTLY },
  ];
}

const completed = { role: 'implementor', outcome: 'completed', summary: 'Done.' };
const gaveUp = { role: 'implementor', outcome: 'blocked', summary: 'Stopping here.' };

interface World {
  repo: TempGitRepo;
  server: ModelServer;
  provider: InMemoryProvider;
  dbDir: string;
  db: Database | null;
  engine: Engine | null;
  /** Milliseconds added to the real time: a day rollover without waiting. */
  offset: number;
}

let world: World | null = null;

afterEach(async () => {
  if (world === null) return;
  await world.engine?.stop();
  world.db?.close();
  await world.server.close();
  await world.repo.cleanup();
  await rm(world.dbDir, { recursive: true, force: true });
  world = null;
});

async function setUpWorld(scenario: ScenarioSpec): Promise<World> {
  const repo = await createTempGitRepo();
  await repo.commit('base', {
    '.claude/agents/planner.md': buildAgentFile('Read, Grep, Glob'),
    '.claude/agents/implementor.md': buildAgentFile('Read, Write, Edit, Bash'),
    '.claude/agents/reviewer.md': buildAgentFile('Read, Grep, Glob'),
    'README.md': '# Sample\n',
  });
  world = {
    repo,
    server: await createModelServer(scenario),
    provider: createInMemoryProvider({ initialPipelineStatus: 'success' }),
    dbDir: await mkdtemp(join(tmpdir(), 'flotilla-budget-')),
    db: null,
    engine: null,
    offset: 0,
  };
  return world;
}

/** An engine (a new one on each call: a restart) on the world's database, provider and model server. */
function startEngine(
  current: World,
  caps: Partial<BudgetCaps>,
): { engine: Engine; persistence: EngineStatePersistence } {
  const clock: Clock = {
    now: () => Date.now() + current.offset,
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
  const logger = createRecordingLogger();
  const { engine, persistence, db } = createBudgetedEngine({
    dbPath: join(current.dbDir, 'flotilla.db'),
    provider: current.provider,
    caps,
    logger,
    clock,
    adapter: () =>
      createClaudeAdapter({
        repoRoot: current.repo.root,
        defaultBranch: 'main',
        contextPaths: [],
        bashValidatorHook: createBashValidatorHook(),
        logger,
        setupCommand: 'none',
        stateDir: `${current.repo.root}/.flotilla/claude`,
        maxAgentDuration: 120,
        logging: { agentSessions: false, logsDir: `${current.repo.root}/.flotilla/logs` },
        extraEnv: { ANTHROPIC_BASE_URL: current.server.url, ANTHROPIC_API_KEY: 'test-key' },
      }),
  });
  current.db = db;
  current.engine = engine;
  return { engine, persistence };
}

async function stopEngine(current: World): Promise<void> {
  await current.engine?.stop();
  current.engine = null;
  current.db?.close();
  current.db = null;
}

const requestsOf = (server: ModelServer, route: string) =>
  server.requests.filter((request) => request.route === route && request.kind === 'step').length;

describe('budgets (real SDK)', () => {
  it(
    'a per-run cap stops a long session mid-run and parks the item with a comment, not as a failure',
    async () => {
      const current = await setUpWorld({
        name: 'long-session',
        routes: [{ name: 'implementor', steps: session(10, completed) }],
      });
      const { engine, persistence } = startEngine(current, { perRunUsd: 0.1 });
      const item = current.provider.control.addWorkItem({
        title: 'Long task',
        body: 'Work.',
        status: 'pending',
      });
      await engine.start();
      await waitUntil(() => engine.getState().workItems[item.id]?.status === 'blocked', TIMEOUT, 'blocked');

      const [run] = Object.values(engine.getState().agentRuns);
      expect(run?.failureReason).toBe('budget');
      expect(run?.error).toContain('per-run cap of $0.10');
      // Stopped after the request that crossed the cap: 11 were scripted.
      expect(requestsOf(current.server, 'implementor')).toBeLessThan(11);
      const spent = run?.usage?.costUSD ?? Number.NaN;
      expect(spent).toBeGreaterThanOrEqual(0.1);
      expect(spent).toBeLessThanOrEqual(0.1 + REQUEST_COST + 1e-9);
      expect(engine.getState().failures).toEqual({});
      const [comment] = current.provider.control.workItemComments(item.id);
      expect(comment).toContain('per-run cap');
      expect(comment).toContain('flotilla budget set per-run');
      const entry = persistence.ledger.get(run?.sessionID ?? '');
      expect(entry).toMatchObject({
        role: 'implementor',
        workItemID: item.id,
        ended: true,
        budgetStop: 'run',
      });
      expect(entry?.model).toMatch(/^claude-/);
      expect(entry?.costUSD).toBeCloseTo(spent, 6);
    },
    TIMEOUT,
  );

  it(
    'a per-item cap across the rework runs blocks the item with spent, cap and how to raise it',
    async () => {
      const current = await setUpWorld({
        name: 'rework',
        routes: [
          {
            name: 'rework',
            match: { firstUserIncludes: '### Prior Reviews', toolsInclude: ['Write'] },
            steps: session(10, completed),
          },
          {
            name: 'implementor',
            match: { toolsInclude: ['Write'] },
            steps: [
              {
                content: [
                  { type: 'tool_use', name: 'Write', input: { file_path: '{{cwd}}/a.txt', content: 'a\n' } },
                ],
                usage: COSTLY,
              },
              { structuredOutput: completed, usage: COSTLY },
            ],
          },
          {
            name: 'reviewer',
            steps: [
              {
                structuredOutput: {
                  role: 'reviewer',
                  review: { verdict: 'needs-changes', summary: 'Add more.', comments: [] },
                },
                usage: COSTLY,
              },
            ],
          },
        ],
      });
      const { engine, persistence } = startEngine(current, { perItemUsd: 0.3 });
      const item = current.provider.control.addWorkItem({
        title: 'Reworked',
        body: 'Work.',
        status: 'pending',
      });
      await engine.start();
      await waitUntil(() => engine.getState().workItems[item.id]?.status === 'blocked', TIMEOUT, 'blocked');

      // First implementation and review: 3 requests ($0.12); the rework was stopped once the item reached $0.30.
      expect(requestsOf(current.server, 'reviewer')).toBe(1);
      expect(requestsOf(current.server, 'rework')).toBeLessThan(11);
      const spent = persistence.ledger.spentUSD({ workItemID: item.id }, []);
      expect(spent).toBeGreaterThanOrEqual(0.3);
      expect(spent).toBeLessThanOrEqual(0.3 + REQUEST_COST + 1e-9);
      const stopped = Object.values(engine.getState().agentRuns).find(
        (run) => run.failureReason === 'budget',
      );
      expect(stopped?.error).toContain("work item's cap of $0.30");
      expect(engine.getState().failures).toEqual({});
      const comment = current.provider.control.workItemComments(item.id).at(-1) ?? '';
      expect(comment).toContain('of its $0.30 budget');
      expect(comment).toContain('flotilla budget set per-item');
    },
    TIMEOUT,
  );

  it(
    'the daily cap pauses dispatch; a restart keeps the ledger and the pause; the next day resumes it',
    async () => {
      const current = await setUpWorld({
        name: 'daily',
        routes: [
          { name: 'first', match: { firstUserIncludes: '## Work Item #1 ' }, steps: session(1, gaveUp) },
          { name: 'second', match: { firstUserIncludes: '## Work Item #2 ' }, steps: session(1, gaveUp) },
        ],
      });
      let { engine } = startEngine(current, { dailyUsd: 0.1 });
      current.provider.control.addWorkItem({ title: 'First', body: 'Work.', status: 'pending' });
      current.provider.control.addWorkItem({ title: 'Second', body: 'Work.', status: 'pending' });
      await engine.start();
      // The first run spent $0.08: the $0.02 left cannot cover the next implementor run (estimated at $0.08).
      await waitUntil(() => engine.getState().budgetPause !== null, TIMEOUT, 'the pause');
      expect(engine.getState().budgetPause).toMatchObject({ period: 'day', capUSD: 0.1 });
      expect(engine.getState().budgetPause?.spentUSD).toBeCloseTo(0.08, 6);
      expect(engine.getState().dispatchQueue.map((entry) => entry.reason)).toEqual(['budget']);
      expect(requestsOf(current.server, 'second')).toBe(0);

      await stopEngine(current);
      ({ engine } = startEngine(current, { dailyUsd: 0.1 }));
      await engine.start();
      await waitUntil(() => engine.getState().budgetPause !== null, TIMEOUT, 'the pause after a restart');
      expect(engine.getState().budgetPause?.spentUSD).toBeCloseTo(0.08, 6);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(requestsOf(current.server, 'second')).toBe(0);

      // Tomorrow (the injected clock): a new day's budget.
      current.offset = 24 * 3_600_000;
      await waitUntil(
        () => current.provider.control.toWorkItem('2').status === 'blocked',
        TIMEOUT,
        'item 2 ran',
      );
      expect(requestsOf(current.server, 'second')).toBe(2);
      expect(engine.getState().budgetPause).toBeNull();
    },
    TIMEOUT,
  );

  it(
    'raising the daily cap with a runtime override resumes a paused dispatch',
    async () => {
      const current = await setUpWorld({
        name: 'raise',
        routes: [
          { name: 'first', match: { firstUserIncludes: '## Work Item #1 ' }, steps: session(1, gaveUp) },
          { name: 'second', match: { firstUserIncludes: '## Work Item #2 ' }, steps: session(1, gaveUp) },
        ],
      });
      const { engine, persistence } = startEngine(current, { dailyUsd: 0.1 });
      current.provider.control.addWorkItem({ title: 'First', body: 'Work.', status: 'pending' });
      current.provider.control.addWorkItem({ title: 'Second', body: 'Work.', status: 'pending' });
      await engine.start();
      await waitUntil(() => engine.getState().budgetPause !== null, TIMEOUT, 'the pause');
      expect(requestsOf(current.server, 'second')).toBe(0);

      // What `flotilla budget set daily 1` writes; the running engine reads it at its next re-check.
      persistence.ledger.setCapOverride('dailyUsd', 1, Date.now());
      await waitUntil(
        () => current.provider.control.toWorkItem('2').status === 'blocked',
        TIMEOUT,
        'item 2 ran',
      );
      expect(engine.getState().budgetPause).toBeNull();
      expect(persistence.ledger.totals({}).costUSD).toBeCloseTo(0.16, 6);
    },
    TIMEOUT,
  );
});
