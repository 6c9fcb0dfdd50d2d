/**
 * `kill -9` of a real `flotilla run --headless` process (its whole process group) in every parked state, then a
 * new `flotilla run` on the same repository: a usage-limit parking, an exhausted account, a daily budget pause
 * and an item waiting for answers all survive, with the ledger, and the work then completes by itself (or once
 * the human acts). Agents are the real Claude Agent SDK answered by the scripted model server on 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import type { ModelServer, Scenario } from '../../src/model-server/index.ts';
import type { ErrorSpec } from '../../src/model-server/scenario-schema.ts';
import { isSpareWorktreePath } from '../../src/workspace/create-worktree-manager.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';
import {
  extraWorktrees,
  leftoverProcessesOf,
  readDatabase,
  startFlotillaRun,
  updateFlotillaConfig,
} from '../support/flotilla-run-process.ts';
import { waitForCondition } from '../support/start-flotilla-process.ts';

const fixtures = createRunFixtures();
afterEach(() => fixtures.cleanup());

const TIMEOUT = 240_000;
/** How long a step of a run may take under load (an SDK session start included). */
const STEP_TIMEOUT = 90_000;

const ONE_ITEM_PLAN = {
  role: 'planner',
  create: [{ tempID: 'a', title: 'Add greet(name)', body: 'Objective: greet.', labels: [], blockedBy: [] }],
  close: [],
  update: [],
};
const APPROVE = { role: 'reviewer', review: { verdict: 'approve', summary: 'ok', comments: [] } };
const COMPLETED = { role: 'implementor', outcome: 'completed', summary: 'greet added' };
const WRITE_GREET = {
  type: 'tool_use' as const,
  name: 'Write',
  input: {
    file_path: '{{cwd}}/src/greet.js',
    content: "export const greet = (n) => 'Hello, ' + n + '!';\n",
  },
};
/**
 * How far a scripted usage limit's reset lies after the request that meets it: long enough for the kill and a
 * new process's start (a Node start and the engine's first poll) under load, short enough to wait for.
 */
const RESET_MS = 30_000;
/** 10,000 input tokens at the CLI's default model's $4 per million: $0.04 a request. */
const COSTLY = { input_tokens: 10_000, output_tokens: 0 };

const plannerRoute = (usage?: typeof COSTLY) => ({
  name: 'planner',
  match: { systemIncludes: 'You are the planner' },
  steps: [{ structuredOutput: ONE_ITEM_PLAN, ...(usage && { usage }) }],
});
const reviewerRoute = {
  name: 'reviewer',
  match: { systemIncludes: 'You are the reviewer' },
  steps: [{ structuredOutput: APPROVE }],
};

/**
 * A subscription's usage limit that resets `inMs` after the request that meets it (the message carries the
 * reset in epoch seconds), refused once; `resets` gets each reset served. The reset is fixed per request by
 * the step's `check` (run first for each request) and read by the `error` getter (the server reads
 * `step.error` per request, more than once).
 */
function usageLimitStep(inMs: number, resets: number[], arrived: number[] = []) {
  let resetsAt = 0;
  return {
    check: () => {
      arrived.push(Date.now());
      resetsAt = Math.ceil((Date.now() + inMs) / 1000);
      if (resets.length === 0) resets.push(resetsAt * 1000);
      return undefined;
    },
    get error(): ErrorSpec {
      return { status: 429, message: `Claude AI usage limit reached|${resetsAt}`, times: 1 };
    },
    content: [WRITE_GREET],
  };
}

/** The demo repository, made small: no checks, fast polls; `config` merged into flotilla.config.json. */
async function smallRepository(config: Record<string, unknown> = {}) {
  const repo = await fixtures.demoRepository();
  updateFlotillaConfig(repo.root, {
    checks: { command: null },
    pollIntervals: { workItems: 1, revisions: 1, specs: 1 },
    ...config,
  });
  return repo;
}

/** The environment `flotilla run` gets: the scripted server, and no CLI retries of a 429 (one request). */
function runEnv(server: ModelServer, gitEnv: Record<string, string>, extra: Record<string, string> = {}) {
  return {
    ...gitEnv,
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'test-key',
    CLAUDE_CODE_MAX_RETRIES: '0',
    ...extra,
  };
}

interface RunRow {
  role: string;
  status: string;
  failure_reason: string | null;
  account: string | null;
}
const runsOf = (repoRoot: string) =>
  readDatabase(
    repoRoot,
    (db) =>
      db
        .prepare('SELECT role, status, failure_reason, account FROM agent_runs ORDER BY requested_at, rowid')
        .all() as RunRow[],
  );
/** The parkings in the database (by runtime and account, not by key: how keys are spelled may change). */
const parkingsOf = (repoRoot: string) =>
  readDatabase(
    repoRoot,
    (db) =>
      db.prepare('SELECT runtime, account, reason, until_at FROM runtime_parkings ORDER BY key').all() as {
        runtime: string;
        account: string | null;
        reason: string;
        until_at: number;
      }[],
  );

interface LedgerRow {
  session_id: string;
  role: string;
  account: string | null;
  cost_usd: number | null;
}
const ledgerOf = (repoRoot: string) =>
  readDatabase(
    repoRoot,
    (db) =>
      db
        .prepare('SELECT session_id, role, account, cost_usd FROM budget_ledger ORDER BY requested_at, rowid')
        .all() as LedgerRow[],
  );
function spendByAccount(ledger: LedgerRow[]): Record<string, number> {
  const spend: Record<string, number> = {};
  for (const row of ledger) spend[row.account ?? ''] = (spend[row.account ?? ''] ?? 0) + (row.cost_usd ?? 0);
  return spend;
}

interface WaitingRow {
  work_item_id: string;
  agent_session_id: string;
  worktree_path: string;
  state_dir: string;
}
const waitingSessionsOf = (repoRoot: string) =>
  readDatabase(
    repoRoot,
    (db) =>
      db
        .prepare('SELECT work_item_id, agent_session_id, worktree_path, state_dir FROM waiting_sessions')
        .all() as WaitingRow[],
  );

interface BudgetDay {
  spentUSD: number;
  runs: number;
  capUSD: number | null;
  reached: boolean;
}
/** `flotilla budget --json`, as a user would read it. */
async function budgetOf(repoRoot: string): Promise<{ day: BudgetDay }> {
  const result = await runFlotillaInProcess(repoRoot, ['budget', '--json']);
  if (result.code !== 0) throw new Error(`flotilla budget failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { day: BudgetDay };
}

const stepRequests = (server: ModelServer, route: string) =>
  server.requests.filter((request) => request.route === route && request.kind === 'step').length;

/** What every test checks after the last run: nothing of the killed processes survives. */
function expectNothingLeft(repoRoot: string) {
  expect(leftoverProcessesOf(repoRoot), 'agent or checks processes').toEqual([]);
  expect(extraWorktrees(repoRoot), 'agent worktrees').toEqual([]);
}

describe('flotilla run killed with kill -9 in a parked state, then restarted', () => {
  it(
    'a usage-limit parking survives: the restart waits for the reset, then the run starts by itself and completes, no attempt counted',
    async () => {
      const repo = await smallRepository();
      const resets: number[] = [];
      const implementorRequests: number[] = [];
      const scenario: Scenario = {
        name: 'usage-limit-then-kill',
        routes: [
          plannerRoute(),
          reviewerRoute,
          {
            name: 'implementor',
            match: { systemIncludes: 'You are the implementor' },
            steps: [usageLimitStep(RESET_MS, resets, implementorRequests), { structuredOutput: COMPLETED }],
          },
        ],
      };
      const server = await fixtures.serve(scenario);
      const env = runEnv(server, repo.gitEnv);

      const first = startFlotillaRun(fixtures, repo.root, env);
      await first.waitForOutput(/implementor for #1 waits for its runtime's limit to lift at/, STEP_TIMEOUT);
      expect(first.output()).toMatch(/implementor failed \(usage-limit\).*claude parked until/);
      const [resetAt] = resets;
      if (resetAt === undefined) throw new Error('the usage limit was never served');
      await first.killGroup();
      expect(parkingsOf(repo.root)).toEqual([
        { runtime: 'claude', account: null, reason: 'usage-limit', until_at: resetAt },
      ]);

      const second = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
      const clock = new Date(resetAt).toISOString().slice(11, 19);
      await second.waitForOutput(
        `implementor for #1 waits for its runtime's limit to lift at ${clock}`,
        STEP_TIMEOUT,
      );
      await second.waitForOutput('work item #1 review → approved', TIMEOUT);
      expect(await second.exited, second.output()).toBe(0);

      // The limited request, then the retry — not before the reset, though a new process had started.
      expect(implementorRequests).toHaveLength(2);
      expect(implementorRequests[1]).toBeGreaterThanOrEqual(resetAt);
      expect(runsOf(repo.root).map((run) => [run.role, run.status, run.failure_reason])).toEqual([
        ['planner', 'completed', null],
        ['implementor', 'failed', 'usage-limit'],
        ['implementor', 'completed', null],
        ['reviewer', 'completed', null],
      ]);
      // Not a failed attempt: no retry backoff was printed, and the lifted parking is gone.
      expect(`${first.output()}${second.output()}`).not.toMatch(/retry of implementor/);
      expect(parkingsOf(repo.root)).toEqual([]);
      expectNothingLeft(repo.root);
      expect(server.report().problems).toEqual([]);
    },
    TIMEOUT,
  );
  it(
    'an exhausted account stays exhausted across the restart; the work completes on the other, the ledger keeps per-account spend',
    async () => {
      const repo = await smallRepository({
        accounts: [
          { name: 'work', runtime: 'claude', env: { ANTHROPIC_API_KEY: '$WORK_KEY' } },
          { name: 'spare', runtime: 'claude', env: { ANTHROPIC_API_KEY: '$SPARE_KEY' } },
        ],
      });
      // Far enough not to lift during the test: the work must finish on the spare account.
      const resetsAt = Math.ceil(Date.now() / 1000) + 3600;
      let finishing = 0;
      let killed = false;
      const scenario: Scenario = {
        name: 'failover-then-kill',
        routes: [
          plannerRoute(COSTLY),
          reviewerRoute,
          {
            name: 'implementor',
            match: { systemIncludes: 'You are the implementor' },
            steps: [
              {
                error: { status: 429, message: `Claude AI usage limit reached|${resetsAt}`, times: 1 },
                content: [WRITE_GREET],
                usage: COSTLY,
              },
              {
                // The first session to get here is killed while it waits for this reply.
                check: () => {
                  finishing += 1;
                  return undefined;
                },
                get delayMs() {
                  return finishing === 1 && !killed ? 120_000 : 0;
                },
                structuredOutput: COMPLETED,
                usage: COSTLY,
              },
            ],
          },
        ],
      };
      const server = await fixtures.serve(scenario);
      const env = runEnv(server, repo.gitEnv, { WORK_KEY: 'key-of-work', SPARE_KEY: 'key-of-spare' });

      const first = startFlotillaRun(fixtures, repo.root, env);
      await first.waitForOutput(
        /claude account work exhausted until .*continues on account spare/,
        STEP_TIMEOUT,
      );
      await waitForCondition(
        () => finishing === 1,
        STEP_TIMEOUT,
        "the spare account's run to wait for its reply",
      );
      // Its first request's cost reaches the ledger from the live usage (the agent's stream, read concurrently).
      await waitForCondition(
        () => spendByAccount(ledgerOf(repo.root)).spare === 0.04,
        STEP_TIMEOUT,
        "the spare account's spend in the ledger",
      );
      expect(leftoverProcessesOf(repo.root), "the spare account's agent").not.toEqual([]);
      await first.killGroup();
      // Its `claude` CLI goes with flotilla: the sandbox's own session ends when its parent dies (bubblewrap's
      // --die-with-parent), which the kernel delivers a moment after the group's SIGKILL, not with it.
      await waitForCondition(
        () => leftoverProcessesOf(repo.root).length === 0,
        5_000,
        "the spare account's agent to end with flotilla",
        () => leftoverProcessesOf(repo.root).join(' '),
      );
      killed = true;
      const requestsBeforeKill = server.requests.length;
      const ledgerBeforeKill = ledgerOf(repo.root);
      expect(ledgerBeforeKill.map((row) => [row.role, row.account, row.cost_usd])).toEqual([
        ['planner', 'work', 0.04],
        ['implementor', 'work', 0],
        ['implementor', 'spare', 0.04],
      ]);
      const exhausted = {
        runtime: 'claude',
        account: 'work',
        reason: 'usage-limit',
        until_at: resetsAt * 1000,
      };
      expect(parkingsOf(repo.root)).toEqual([exhausted]);

      const second = startFlotillaRun(fixtures, repo.root, env, ['--until-idle']);
      await second.waitForOutput('work item #1 review → approved', TIMEOUT);
      await second.exited;
      // Every request of the new process used the spare account: the exhausted one was not tried again.
      const keysAfterKill = server.requests
        .slice(requestsBeforeKill)
        .filter((request) => request.kind === 'step')
        .map((request) => request.headers['x-api-key']);
      expect(keysAfterKill.length).toBeGreaterThan(0);
      expect(new Set(keysAfterKill)).toEqual(new Set(['key-of-spare']));
      expect(parkingsOf(repo.root)).toEqual([exhausted]);
      expect(runsOf(repo.root).map((run) => [run.role, run.account, run.status, run.failure_reason])).toEqual(
        [
          ['planner', 'work', 'completed', null],
          ['implementor', 'work', 'failed', 'usage-limit'],
          ['implementor', 'spare', 'failed', 'error'],
          ['implementor', 'spare', 'completed', null],
          ['reviewer', 'spare', 'completed', null],
        ],
      );
      // The spend recorded before the kill is still there, per account.
      const ledger = ledgerOf(repo.root);
      for (const row of ledgerBeforeKill) {
        expect(ledger.find((entry) => entry.session_id === row.session_id)).toMatchObject({
          account: row.account,
          cost_usd: row.cost_usd,
        });
      }
      expect(spendByAccount(ledger)).toEqual({ work: 0.04, spare: expect.closeTo(0.04 + 0.08 + 0.0008, 3) });
      expectNothingLeft(repo.root);
    },
    TIMEOUT,
  );

  it(
    'a daily budget pause survives with its ledger; raising the cap with flotilla budget set resumes the work',
    async () => {
      const repo = await smallRepository({ budgets: { dailyUsd: 0.1 } });
      // The planner spends $0.08: the $0.02 left cannot cover an implementor run (estimated at the $0.05 floor).
      const server = await fixtures.serve({
        name: 'budget-pause-then-kill',
        routes: [
          plannerRoute({ input_tokens: 20_000, output_tokens: 0 }),
          reviewerRoute,
          {
            name: 'implementor',
            match: { systemIncludes: 'You are the implementor' },
            steps: [{ content: [WRITE_GREET] }, { structuredOutput: COMPLETED }],
          },
        ],
      });
      const env = runEnv(server, repo.gitEnv);
      const paused = "dispatch paused: day's budget $0.08 of $0.10 spent";

      const first = startFlotillaRun(fixtures, repo.root, env);
      await first.waitForOutput(paused, STEP_TIMEOUT);
      const budgetBeforeKill = await budgetOf(repo.root);
      expect(budgetBeforeKill.day).toMatchObject({ runs: 1, capUSD: 0.1, reached: false });
      expect(budgetBeforeKill.day.spentUSD).toBeCloseTo(0.08, 6);
      await first.killGroup();

      const second = startFlotillaRun(fixtures, repo.root, env);
      await second.waitForOutput(paused, STEP_TIMEOUT);
      expect(await budgetOf(repo.root)).toEqual(budgetBeforeKill);
      expect(stepRequests(server, 'implementor')).toBe(0);

      const raised = await runFlotillaInProcess(repo.root, ['budget', 'set', 'daily', '1']);
      expect(raised.code, raised.stderr).toBe(0);
      await second.waitForOutput('dispatch resumed: within budget again', STEP_TIMEOUT);
      await second.waitForOutput('work item #1 review → approved', TIMEOUT);
      expect(await second.stop(60_000), second.output()).toBe(0);

      expect(runsOf(repo.root).map((run) => [run.role, run.status])).toEqual([
        ['planner', 'completed'],
        ['implementor', 'completed'],
        ['reviewer', 'completed'],
      ]);
      const budget = await budgetOf(repo.root);
      expect(budget.day).toMatchObject({ runs: 3, capUSD: 1 });
      expect(budget.day.spentUSD).toBeGreaterThan(budgetBeforeKill.day.spentUSD);
      expectNothingLeft(repo.root);
    },
    TIMEOUT,
  );

  it(
    'an item waiting for answers keeps waiting with its worktree; flotilla answer after the restart resumes the same session',
    async () => {
      const repo = await smallRepository();
      const server = await fixtures.serve({
        name: 'questions-then-kill',
        onUnmetExpectation: 'reject',
        routes: [
          plannerRoute(),
          reviewerRoute,
          {
            name: 'implementor',
            match: { systemIncludes: 'You are the implementor' },
            steps: [
              {
                structuredOutput: {
                  role: 'implementor',
                  outcome: 'questions',
                  questions: ['Should greet trim the name?'],
                },
              },
              {
                expect: { lastUserIncludes: ['A human answered your questions', 'Yes, trim it.'] },
                content: [WRITE_GREET],
              },
              { structuredOutput: COMPLETED },
            ],
          },
        ],
      });
      const env = runEnv(server, repo.gitEnv);

      const first = startFlotillaRun(fixtures, repo.root, env);
      await first.waitForOutput('work item #1 in-progress → waiting-for-input', STEP_TIMEOUT);
      await waitForCondition(
        () => waitingSessionsOf(repo.root).length === 1,
        STEP_TIMEOUT,
        'the waiting session',
      );
      const [waiting] = waitingSessionsOf(repo.root);
      if (waiting === undefined) throw new Error('no waiting session recorded');
      await first.killGroup();
      // The killed process could not remove the spare it prepared ahead; the restart reaps it (unreported).
      expect(extraWorktrees(repo.root).filter((path) => !isSpareWorktreePath(path))).toEqual([
        waiting.worktree_path,
      ]);

      const second = startFlotillaRun(fixtures, repo.root, env);
      await second.waitForOutput('flotilla running in', STEP_TIMEOUT);
      // The restart's recovery kept the waiting session's worktree and CLI state; the item still waits.
      expect(second.output()).not.toMatch(/[1-9]\d* stale worktree/);
      expect(extraWorktrees(repo.root)).toEqual([waiting.worktree_path]);
      expect(existsSync(waiting.state_dir)).toBe(true);
      expect(waitingSessionsOf(repo.root)).toEqual([waiting]);
      const shown = await runFlotillaInProcess(repo.root, ['work', 'show', '1', '--json']);
      expect(JSON.parse(shown.stdout)).toMatchObject({ status: 'waiting-for-input' });

      const answered = await runFlotillaInProcess(repo.root, ['answer', '1', 'Yes, trim it.']);
      expect(answered.code, answered.stderr).toBe(0);
      await second.waitForOutput('work item #1 review → approved', TIMEOUT);
      expect(await second.stop(60_000), second.output()).toBe(0);

      // The same SDK session went on: every implementor request carried the asking session's id.
      const implementorSessions = server.requests
        .filter((request) => request.route === 'implementor' && request.kind === 'step')
        .map((request) => request.headers['x-claude-code-session-id']);
      expect(implementorSessions).toHaveLength(3);
      expect(new Set(implementorSessions)).toEqual(new Set([waiting.agent_session_id]));
      expect(server.report().problems).toEqual([]);
      expect(existsSync(waiting.state_dir)).toBe(false);
      expectNothingLeft(repo.root);
    },
    TIMEOUT,
  );
});
