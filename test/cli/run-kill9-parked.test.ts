/**
 * `kill -9` of a real `flotilla run --headless` process (its whole process group) in every parked state, then a
 * new `flotilla run` on the same repository: a usage-limit parking, an exhausted account, a daily budget pause
 * and an item waiting for answers all survive, with the ledger, and the work then completes by itself (or once
 * the human acts). Agents are the real Claude Agent SDK answered by the scripted model server on 127.0.0.1.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFlotillaInProcess } from '../../src/cli/support/run-flotilla-in-process.ts';
import type { ModelServer, Scenario } from '../../src/model-server/index.ts';
import type { ErrorSpec } from '../../src/model-server/scenario-schema.ts';
import { createRunFixtures } from '../support/create-run-fixtures.ts';
import {
  extraWorktrees,
  leftoverProcessesOf,
  readDatabase,
  startFlotillaRun,
  updateFlotillaConfig,
} from '../support/flotilla-run-process.ts';

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
const parkingsOf = (repoRoot: string) =>
  readDatabase(
    repoRoot,
    (db) =>
      db.prepare('SELECT key, reason, until_at FROM runtime_parkings ORDER BY key').all() as {
        key: string;
        reason: string;
        until_at: number;
      }[],
  );

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
      expect(parkingsOf(repo.root)).toEqual([{ key: 'claude', reason: 'usage-limit', until_at: resetAt }]);

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
});
