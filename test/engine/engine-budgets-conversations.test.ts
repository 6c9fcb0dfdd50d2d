/**
 * Issue #28 §3: questions and answers between agents count toward budgets like any model request. The
 * engine drives the real Claude adapter (the real SDK binary) against the scripted model server, two
 * implementors at once; every scripted request costs exactly $0.04 (10,000 input tokens at the CLI
 * default model's $4 per million, as test/engine/engine-budgets.test.ts prices them) — but for the cap test's
 * waiting ones, which are free there so that how long an agent waits under load cannot decide the outcome. Agent A (item 1)
 * asks agent B (item 2) through `ask_agent`; the question is pushed into B's live session, and B's
 * requests while it answers are billed to B's run. The ledger is a real SQLite file written by persistence.
 * Nothing waits for a fixed time: the agents wait on files this test writes once the ledger of
 * conversations shows the question.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRun, BudgetCaps } from '../../src/domain/index.ts';
import type { Engine } from '../../src/engine/create-engine.ts';
import { createBashValidatorHook } from '../../src/guards/bash-validator/index.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import {
  createModelServer,
  type ModelServer,
  type RequestView,
  type Scenario,
  type StepReply,
} from '../../src/model-server/index.ts';
import { createClaudeAdapter } from '../../src/runtimes/claude/create-claude-adapter.ts';
import type { Database, EngineStatePersistence } from '../../src/storage/index.ts';
import { waitUntil } from '../support/claude-adapter-fixture.ts';
import { createBudgetedEngine } from '../support/create-budgeted-engine.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
} from '../support/in-memory-provider/create-in-memory-provider.ts';
import { APPROVE } from '../support/run-scenarios.ts';
import { createTempGitRepo, type TempGitRepo } from '../support/shared/create-temp-git-repo.ts';
import { buildAgentFile } from '../support/track-engine-setup.ts';

const REQUEST_COST = 0.04;
const COSTLY = { input_tokens: 10_000, output_tokens: 0 };
const TIMEOUT = 240_000;
const PAUSE = 'timeout 0.2 tail -f /dev/null';
const COMPLETED = { role: 'implementor', outcome: 'completed', summary: 'done' };

const FREE = { input_tokens: 0, output_tokens: 0 };
const bash = (command: string, usage = COSTLY): StepReply => ({
  content: [{ type: 'tool_use', name: 'Bash', input: { command, description: 'Wait' } }],
  usage,
});
const tool = (name: string, input: Record<string, unknown>): StepReply => ({
  content: [{ type: 'tool_use', name: `mcp__flotilla__${name}`, input }],
  usage: COSTLY,
});
const done = (output: Record<string, unknown>): StepReply => ({ structuredOutput: output, usage: COSTLY });
const waitForFile = (file: string) => `until [ -e '${file}' ]; do ${PAUSE}; done`;

interface Signals {
  bRunning: string;
  asked: string;
}

/** What A's tool results said, for the assertions. */
interface Seen {
  answer?: string;
  /** The billed replies each agent got (a waiting one is free when the scenario says so). */
  billed: { a: number; b: number };
}

/** A: wait until B runs, ask it (again, should B not have joined yet), then write its file and complete. */
function agentA(signals: Signals, seen: Seen, waitUsage: typeof COSTLY) {
  let phase: 'start' | 'asking' = 'start';
  return (request: RequestView): StepReply => {
    const result = request.lastToolResult?.text ?? '';
    if (phase === 'start') {
      phase = 'asking';
      return bash(waitForFile(signals.bRunning), waitUsage);
    }
    if (result.includes('nobody was asked')) return bash(PAUSE, waitUsage);
    if (seen.answer !== undefined) return done(COMPLETED);
    if (result.includes('Port 8080.') || result.includes('stopped before it answered')) {
      seen.answer = result;
      return bash("printf 'served\\n' > served.txt");
    }
    return tool('ask_agent', { to: '2', question: 'Which port?', timeoutSeconds: 180 });
  };
}

/**
 * B: say it runs and wait until A's question is recorded; once the question is in its session, `thinkFor`
 * Bash requests (each billed), then answer, write its file and complete. With a per-run cap those requests reach it first.
 */
function agentB(signals: Signals, thinkFor: number, waitUsage: typeof COSTLY) {
  let phase: 'start' | 'question' | 'think' | 'write' | 'complete' = 'start';
  let conversationID = '';
  let thought = 0;
  return (request: RequestView): StepReply => {
    if (phase === 'start') {
      writeFileSync(signals.bRunning, '');
      phase = 'question';
      return bash(waitForFile(signals.asked), waitUsage);
    }
    if (phase === 'question') {
      const id = /conversation (c-[a-z0-9-]+)/.exec(request.messagesText)?.[1];
      if (id === undefined) return bash(PAUSE, waitUsage);
      conversationID = id;
      phase = 'think';
    }
    if (phase === 'think' && thought < thinkFor) {
      thought += 1;
      return bash(`echo thinking ${thought}`);
    }
    if (phase === 'think') {
      phase = 'write';
      return tool('answer_agent', { conversationId: conversationID, answer: 'Port 8080.' });
    }
    if (phase === 'write') {
      phase = 'complete';
      return bash("printf '8080\\n' > port.txt");
    }
    return done(COMPLETED);
  };
}

function scenario(signals: Signals, seen: Seen, thinkFor: number, waitUsage: typeof COSTLY): Scenario {
  const many = (respond: (request: RequestView) => StepReply) =>
    Array.from({ length: 100 }, () => ({ respond }));
  const billing =
    (agent: 'a' | 'b', respond: (request: RequestView) => StepReply) => (request: RequestView) => {
      const reply = respond(request);
      if (reply.usage === COSTLY) seen.billed[agent] += 1;
      return reply;
    };
  return {
    name: 'conversation-budgets',
    routes: [
      // Implementors can write (the reviewer cannot); each item's body names its agent.
      {
        name: 'a',
        match: { firstUserIncludes: 'Objective: serve.', toolsInclude: ['Write'] },
        steps: many(billing('a', agentA(signals, seen, waitUsage))),
      },
      {
        name: 'b',
        match: { firstUserIncludes: 'Objective: choose.', toolsInclude: ['Write'] },
        steps: many(billing('b', agentB(signals, thinkFor, waitUsage))),
      },
      { name: 'reviewer', steps: many(() => done(APPROVE)) },
    ],
  };
}

interface World {
  repo: TempGitRepo;
  server: ModelServer;
  provider: InMemoryProvider;
  dbDir: string;
  db: Database | null;
  engine: Engine | null;
  watch: NodeJS.Timeout | null;
  logger: ReturnType<typeof createRecordingLogger>;
}

let world: World | null = null;

afterEach(async () => {
  if (world === null) return;
  if (world.watch !== null) clearInterval(world.watch);
  await world.engine?.stop();
  world.db?.close();
  await world.server.close();
  await world.repo.cleanup();
  await rm(world.dbDir, { recursive: true, force: true });
  world = null;
});

/**
 * Two items, A's and B's, dispatched at once under `caps`; the test writes `asked` once A's question is open.
 * `waitUsage`: what a request spent waiting (for B to run, for the question) costs.
 */
async function startWorld(
  thinkFor: number,
  caps: Partial<BudgetCaps>,
  waitUsage = COSTLY,
): Promise<{ current: World; persistence: EngineStatePersistence; seen: Seen }> {
  const repo = await createTempGitRepo();
  await repo.commit('base', {
    '.claude/agents/planner.md': buildAgentFile('Read, Grep, Glob'),
    '.claude/agents/implementor.md': buildAgentFile('Read, Write, Edit, Bash'),
    '.claude/agents/reviewer.md': buildAgentFile('Read, Grep, Glob'),
    'README.md': '# Sample\n',
  });
  const dir = join(repo.root, '.signals');
  mkdirSync(dir);
  const signals = { bRunning: join(dir, 'b-running'), asked: join(dir, 'asked') };
  const seen: Seen = { billed: { a: 0, b: 0 } };
  const logger = createRecordingLogger();
  const current: World = {
    repo,
    server: await createModelServer(scenario(signals, seen, thinkFor, waitUsage)),
    provider: createInMemoryProvider({ initialPipelineStatus: 'success' }),
    dbDir: await mkdtemp(join(tmpdir(), 'flotilla-talk-budget-')),
    db: null,
    engine: null,
    watch: null,
    logger,
  };
  world = current;
  const { engine, persistence, db } = createBudgetedEngine({
    dbPath: join(current.dbDir, 'flotilla.db'),
    provider: current.provider,
    caps,
    logger,
    maxConcurrentAgents: 2,
    adapter: () =>
      createClaudeAdapter({
        repoRoot: repo.root,
        defaultBranch: 'main',
        contextPaths: [],
        bashValidatorHook: createBashValidatorHook(),
        logger,
        setupCommand: 'none',
        stateDir: `${repo.root}/.flotilla/claude`,
        maxAgentDuration: 180,
        logging: { agentSessions: false, logsDir: `${repo.root}/.flotilla/logs` },
        extraEnv: { ANTHROPIC_BASE_URL: current.server.url, ANTHROPIC_API_KEY: 'test-key' },
      }),
  });
  current.db = db;
  current.engine = engine;
  current.provider.control.addWorkItem({ title: 'Serve', body: 'Objective: serve.', status: 'pending' });
  current.provider.control.addWorkItem({ title: 'Choose', body: 'Objective: choose.', status: 'pending' });
  current.watch = setInterval(() => {
    if (existsSync(signals.asked)) return;
    const open = persistence.conversations
      .list()
      .some((conversation) => conversation.question === 'Which port?' && conversation.status === 'open');
    if (open) writeFileSync(signals.asked, '');
  }, 100);
  await engine.start();
  return { current, persistence, seen };
}

/** Waits for `check`; on a timeout says where the runs were and what the engine logged as errors. */
async function waitFor(current: World, check: () => boolean, what: string): Promise<void> {
  const failed = () =>
    Object.values(current.engine?.getState().agentRuns ?? {}).some(
      (run) => run.status === 'failed' && run.failureReason !== 'budget',
    );
  try {
    await waitUntil(() => check() || failed(), TIMEOUT - 30_000, what);
    if (failed()) throw new Error(`a run failed while waiting for ${what}`);
  } catch (error) {
    const runs = Object.values(current.engine?.getState().agentRuns ?? {}).map(
      (run) => `${run.role} ${'workItemID' in run ? run.workItemID : '-'} ${run.status} ${run.error ?? ''}`,
    );
    const logged = current.logger.records
      .filter((record) => record.level !== 'debug')
      .map((record) => `${record.level} ${record.message} ${JSON.stringify(record.fields)}`);
    const requests = current.server.requests.map((request) => `${request.kind} ${request.route ?? ''}`);
    throw new Error(
      [(error as Error).message, ...runs, ...logged.slice(-30), requests.join(', ')].join('\n'),
    );
  }
}

const stepRequests = (server: ModelServer, route: string) =>
  server.requests.filter((request) => request.route === route && request.kind === 'step');

function implementorRun(engine: Engine, workItemID: string): AgentRun {
  const run = Object.values(engine.getState().agentRuns).find(
    (candidate) => candidate.role === 'implementor' && candidate.workItemID === workItemID,
  );
  if (run === undefined) throw new Error(`no implementor run on #${workItemID}`);
  return run;
}

describe('conversations between agents and budgets (real SDK)', () => {
  it(
    "the requests made while asking and answering are priced into each run's usage and the ledger",
    async () => {
      const { current, persistence, seen } = await startWorld(2, { dailyUsd: 10 });
      const engine = current.engine as Engine;
      const approved = (id: string) => engine.getState().workItems[id]?.status === 'approved';
      await waitFor(current, () => approved('1') && approved('2'), 'both items approved');

      expect(seen.answer).toContain('Port 8080.');
      const [conversation] = persistence.conversations.list().filter((c) => c.status !== 'not-running');
      expect(conversation).toMatchObject({
        question: 'Which port?',
        status: 'answered',
        answer: 'Port 8080.',
      });
      for (const [id, route] of [
        ['1', 'a'],
        ['2', 'b'],
      ] as const) {
        const run = implementorRun(engine, id);
        const requests = stepRequests(current.server, route).length;
        // Every request the agent made, the ones asking (A) and answering (B) included, is in its usage.
        expect(run.usage?.costUSD, `#${id}`).toBeCloseTo(requests * REQUEST_COST, 6);
        expect(persistence.ledger.get(run.sessionID)?.costUSD, `#${id} ledger`).toBeCloseTo(
          requests * REQUEST_COST,
          6,
        );
      }
      // B answered in its own session: the question pushed into it, two billed thoughts, the answer, the end.
      const bRequests = stepRequests(current.server, 'b');
      const afterQuestion = bRequests.filter((request) =>
        JSON.stringify(request.body).includes('Which port?'),
      );
      expect(afterQuestion.length).toBeGreaterThanOrEqual(4);
      // The day's spend is every request made, reviews included.
      const all = current.server.requests.filter((request) => request.kind === 'step').length;
      expect(persistence.ledger.spentUSD({}, [])).toBeCloseTo(all * REQUEST_COST, 6);
    },
    TIMEOUT,
  );

  it(
    'a per-run cap reached while B works on the answer stops B like any other spend; A is told and goes on',
    async () => {
      // Waiting is free here, so how long either waits under load (B's run joining late makes A ask again)
      // changes nothing: A bills 3 requests and one per ask again; B reaches $0.40 on its tenth billed
      // thought (it would think 20 times), the question open.
      const { current, persistence, seen } = await startWorld(20, { perRunUsd: 0.4 }, FREE);
      const engine = current.engine as Engine;
      await waitFor(
        current,
        () =>
          engine.getState().workItems['2']?.status === 'blocked' &&
          engine.getState().workItems['1']?.status === 'approved',
        '#2 blocked by its cap, #1 approved',
      );

      const stopped = implementorRun(engine, '2');
      expect(stopped.failureReason).toBe('budget');
      expect(stopped.error).toContain('per-run cap of $0.40');
      const spent = stopped.usage?.costUSD ?? Number.NaN;
      expect(spent).toBeGreaterThanOrEqual(0.4 - 1e-9);
      expect(spent).toBeLessThanOrEqual(0.4 + REQUEST_COST + 1e-9);
      expect(persistence.ledger.get(stopped.sessionID)).toMatchObject({ ended: true, budgetStop: 'run' });
      expect(persistence.ledger.get(stopped.sessionID)?.costUSD).toBeCloseTo(spent, 6);
      // Stopped before it answered: the conversation ended `stopped`, and A was told so and went on.
      const asked = persistence.conversations.list().filter((c) => c.status !== 'not-running');
      expect(asked.map((c) => [c.question, c.status])).toEqual([['Which port?', 'stopped']]);
      expect(seen.answer).toContain('stopped before it answered');
      const a = implementorRun(engine, '1');
      expect(a.status).toBe('completed');
      expect(a.usage?.costUSD).toBeCloseTo(seen.billed.a * REQUEST_COST, 6);
      expect(engine.getState().failures).toEqual({});
    },
    TIMEOUT,
  );
});
