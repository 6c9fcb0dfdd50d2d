import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImplementorResult, PlannerResult, ReviewerResult } from '../../../src/domain/index.ts';
import { AgentRunFailure } from '../../../src/engine/runtime-contract/runtime-contract.ts';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import { createModelServer, type ModelServer, type Scenario } from '../../../src/model-server/index.ts';
import {
  type CodexRuntimeConfig,
  createCodexRuntime,
} from '../../../src/runtimes/codex/create-codex-runtime.ts';
import { createSandbox } from '../../../src/sandbox/create-sandbox.ts';
import type { Sandbox } from '../../../src/sandbox/sandbox-types.ts';
import { createSessionLogFactory } from '../../../src/session-log/create-session-log-factory.ts';
import { createTempGitRepo, type TempGitRepo } from '../../support/shared/create-temp-git-repo.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';

/**
 * The Codex runtime with the real codex binary (bundled with @openai/codex-sdk) against the scripted model
 * server's Responses endpoint on 127.0.0.1. The proxy tripwire points HTTPS_PROXY & co. at the server, so
 * anything codex or git tried to reach outside 127.0.0.1 would show in `report().problems`.
 */

const SCRIPTED_KEY = 'FLOTILLA_SCRIPTED_API_KEY';
const PLANTED_SECRET = 'planted-secret-value-4711';

let repo: TempGitRepo;
let logsDir: string;
let openServer: ModelServer | undefined;

beforeEach(async () => {
  repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# scratch\n', 'CONVENTIONS.md': 'Always be exact.\n' });
  logsDir = await mkdtemp(join(tmpdir(), 'codex-runtime-logs-'));
});
afterEach(async () => {
  await openServer?.close();
  openServer = undefined;
  await repo.cleanup();
  await rm(logsDir, { recursive: true, force: true });
});

async function start(scenario: Scenario, overrides: Partial<CodexRuntimeConfig> = {}) {
  openServer = await createModelServer(scenario);
  const tripwire = Object.fromEntries(
    ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY'].flatMap((name) => [
      [name, openServer!.url],
      [name.toLowerCase(), openServer!.url],
    ]),
  );
  const logger = createRecordingLogger();
  const stateDir = join(repo.root, '.flotilla', 'codex');
  const runtime = createCodexRuntime({
    sandbox: createTestSandbox(),
    repoRoot: repo.root,
    defaultBranch: 'main',
    logger,
    stateDir,
    contextPaths: ['CONVENTIONS.md'],
    model: 'scripted',
    provider: { id: 'flotilla-scripted', baseUrl: `${openServer.url}/v1`, envKey: SCRIPTED_KEY },
    baseEnv: { ...process.env, [SCRIPTED_KEY]: 'dummy', GITHUB_TOKEN: PLANTED_SECRET },
    extraEnv: tripwire,
    maxAgentDuration: 120,
    logging: { agentSessions: true, logsDir },
    createSessionLog: createSessionLogFactory({ logsDir, enabled: true, logger }),
    runtime: 'scripted',
    ...overrides,
  });
  return { runtime, server: openServer, stateDir, logger };
}

/** What runs left under `<stateDir>/runs`: a finished run leaves nothing, its CODEX_HOME included. */
async function runLeftovers(stateDir: string): Promise<string[]> {
  return readdir(join(stateDir, 'runs'), { recursive: true }).catch(() => [] as string[]);
}

async function failureOf(promise: Promise<unknown>): Promise<AgentRunFailure> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AgentRunFailure);
  return error as AgentRunFailure;
}

describe('codex runtime (real codex binary, scripted Responses endpoint)', () => {
  it('implementor: writes a file in its worktree → patch; transcript, usage; no secrets reach commands', async () => {
    const { runtime, server, stateDir } = await start({
      routes: [
        {
          name: 'implementor',
          match: { firstUserIncludes: '## Work Item #7', systemIncludes: 'Always be exact.' },
          steps: [
            {
              name: 'write',
              content: [
                { type: 'text', text: 'Writing the greeting.' },
                {
                  type: 'tool_use',
                  name: 'exec_command',
                  input: { cmd: "mkdir -p notes && printf 'hi\\n' > notes/hello.txt && env | sort" },
                },
              ],
              usage: { input_tokens: 200, output_tokens: 30 },
            },
            {
              name: 'report',
              expect: {
                toolResultsInclude: 'HOME=',
                lastToolResultIsError: false,
                messagesExclude: [SCRIPTED_KEY, PLANTED_SECRET, 'GITHUB_TOKEN'],
              },
              structuredOutput: {
                role: 'implementor',
                outcome: 'completed',
                summary: 'Wrote notes/hello.txt.',
              },
              usage: { input_tokens: 260, output_tokens: 25 },
            },
          ],
        },
      ],
    });
    const handle = await runtime.startAgent({
      role: 'implementor',
      sessionID: 'impl-1',
      workItemID: '7',
      branchName: 'flotilla/7',
      prompt: '## Work Item #7 — Greet\n\nWrite notes/hello.txt.',
    });
    const texts: string[] = [];
    for await (const text of handle.output) texts.push(text);
    const result = (await handle.result) as ImplementorResult;

    expect(result).toMatchObject({
      role: 'implementor',
      outcome: 'completed',
      summary: 'Wrote notes/hello.txt.',
    });
    expect(result.patch).toContain('+++ b/notes/hello.txt');
    expect(result.patch).toContain('+hi');
    expect(texts.join('')).toContain('Writing the greeting.');
    expect(handle.usage?.()).toEqual({ costUSD: null, inputTokens: 460, outputTokens: 55, turns: 1 });
    expect(server.report().problems).toEqual([]);
    // The request codex sent: the role's strict schema; codex's own sandbox is not nested inside Flotilla's.
    const body = server.requests[0]?.body as { text?: { format?: { strict?: boolean; schema?: unknown } } };
    expect(body.text?.format).toMatchObject({ strict: true, schema: { additionalProperties: false } });
    expect(JSON.stringify(server.requests[0]?.headers)).toContain('"sandbox_mode\\":\\"danger-full-access');

    // Nothing is left: the run's CODEX_HOME and the worktree are gone, the repository is untouched.
    expect(await runLeftovers(stateDir)).toEqual([]);
    expect(existsSync(join(repo.root, '.worktrees', 'agent', 'flotilla', '7'))).toBe(false);
    expect(await repo.git(['branch', '--list', 'agent/*'])).toBe('');
    const transcript = await readFile(handle.logFilePath!, 'utf8');
    expect(transcript).toContain('ASSISTANT [tool_use] exec_command');
    expect(transcript).toContain('Writing the greeting.');
    expect(transcript).toContain('RESULT success');
    expect(transcript).toContain('Outcome: completed');
  });

  it("a run cannot change the next run's CODEX_HOME (config, instructions), nor reach another run's", async () => {
    // The first implementor plants what codex reads at start — global instructions (AGENTS.md) and a config
    // that breaks — in every directory under the runtime's runs it can find, and in the next run's home (the
    // ids are the test's). The second run of the same config must start clean.
    const runs = join(repo.root, '.flotilla', 'codex', 'runs');
    const next = join(runs, 'session-plant-2', 'home');
    // Split in the command, so that only what the files hold reads PLANTED-INSTRUCTION.
    const plant = [
      `mkdir -p ${next}`,
      `for dir in ${runs} ${runs}/* ${runs}/*/* ${next}; do printf 'PLANTED-''INSTRUCTION\\n' > $dir/AGENTS.md; printf '[broken\\n' >> $dir/config.toml; done`,
      `cat ${runs}/*/AGENTS.md ${runs}/*/*/AGENTS.md`,
    ].join('; ');
    const completed = (summary: string) => ({
      structuredOutput: { role: 'implementor', outcome: 'completed', summary },
    });
    const { runtime, server, stateDir } = await start({
      routes: [
        {
          name: 'planter',
          match: { firstUserIncludes: '## Work Item #7' },
          steps: [
            {
              content: [
                {
                  type: 'tool_use',
                  name: 'exec_command',
                  input: { cmd: `${plant}; printf x > x.txt; true` },
                },
              ],
            },
            completed('Planted.'),
          ],
        },
        {
          name: 'next',
          match: { firstUserIncludes: '## Work Item #8' },
          steps: [
            { content: [{ type: 'tool_use', name: 'exec_command', input: { cmd: 'printf y > y.txt' } }] },
            completed('Clean.'),
          ],
        },
      ],
    });
    const first = await runtime.startAgent({
      role: 'implementor',
      sessionID: 'plant-1',
      workItemID: '7',
      branchName: 'flotilla/7',
      prompt: '## Work Item #7 — Plant',
    });
    await first.result;
    // The planting worked (read back) where it could, and was refused elsewhere.
    const planted = JSON.stringify(server.requests.map((request) => request.body));
    expect(planted).toContain('PLANTED-INSTRUCTION');
    expect(planted).toContain('Read-only file system');
    const plantedRequests = server.requests.length;
    const second = await runtime.startAgent({
      role: 'implementor',
      sessionID: 'plant-2',
      workItemID: '8',
      branchName: 'flotilla/8',
      prompt: '## Work Item #8 — Next',
    });
    expect(await second.result).toMatchObject({ outcome: 'completed', summary: 'Clean.' });
    expect(server.report().problems).toEqual([]);
    const nextRequests = server.requests.slice(plantedRequests).map((request) => request.body);
    expect(nextRequests).toHaveLength(2);
    expect(JSON.stringify(nextRequests)).not.toContain('PLANTED-INSTRUCTION');
    expect(await runLeftovers(stateDir)).toEqual([]);
  });

  it('reviewer: read-only in the repository, verdict validated; an HTTP 500 is retried', async () => {
    const review = {
      role: 'reviewer',
      review: {
        verdict: 'needs-changes',
        summary: 'One problem.',
        comments: [{ path: 'README.md', line: 1, body: 'Say more.' }],
      },
    };
    const { runtime, server } = await start({
      routes: [
        {
          name: 'reviewer',
          match: { firstUserIncludes: '## Revision #3' },
          steps: [
            {
              name: 'try to write',
              content: [
                { type: 'tool_use', name: 'exec_command', input: { cmd: 'printf x > review-was-here.txt' } },
              ],
            },
            {
              name: 'verdict',
              error: { status: 500, times: 1, message: 'scripted outage' },
              expect: { toolResultsInclude: 'Read-only file system' },
              structuredOutput: review,
            },
          ],
        },
      ],
    });
    const handle = await runtime.startAgent({
      role: 'reviewer',
      sessionID: 'rev-1',
      workItemID: '7',
      revisionID: '3',
      prompt: '## Work Item #7 — Greet\n\n## Revision #3\n\nReview it.',
    });
    const result = (await handle.result) as ReviewerResult;

    expect(result).toEqual(review);
    expect(existsSync(join(repo.root, 'review-was-here.txt'))).toBe(false);
    expect(server.requests.map((request) => [request.status, request.stepName])).toEqual([
      [200, 'try to write'],
      [500, 'verdict'],
      [200, 'verdict'],
    ]);
    expect(JSON.stringify(server.requests[0]?.headers)).toContain('"sandbox_mode\\":\\"danger-full-access');
    expect(server.report().problems).toEqual([]);
  });

  it('planner: structured output; cost from the price table for a listed model', async () => {
    const plan = {
      role: 'planner',
      create: [{ tempID: 't1', title: 'Greet', body: 'Say hello.', labels: [], blockedBy: [] }],
      close: [],
      update: [{ workItemID: '4', body: null, labels: null }],
    };
    const { runtime, server } = await start(
      {
        routes: [
          {
            name: 'planner',
            match: { firstUserIncludes: '## Changed Specs' },
            steps: [
              {
                expect: { model: 'gpt-5' },
                structuredOutput: plan,
                usage: { input_tokens: 1_000_000, output_tokens: 100_000, cache_read_input_tokens: 400_000 },
              },
            ],
          },
        ],
      },
      { models: { planner: 'gpt-5' } },
    );
    const handle = await runtime.startAgent({
      role: 'planner',
      sessionID: 'plan-1',
      specPaths: ['docs/specs/greet.md'],
      specSHAs: { 'docs/specs/greet.md': 'a'.repeat(40) },
      prompt: '## Changed Specs\n\n### docs/specs/greet.md (added)\n',
    });
    const result = (await handle.result) as PlannerResult;

    // Codex's strict schema makes every field required (nullable): the optional summary comes back null.
    expect(result).toEqual({ ...plan, summary: null });
    // gpt-5: 600k uncached × $1.25/M + 400k cached × $0.125/M + 100k out × $10/M = 0.75 + 0.05 + 1.00
    expect(handle.usage?.()).toEqual({
      costUSD: 1.8,
      inputTokens: 1_000_000,
      outputTokens: 100_000,
      turns: 1,
    });
    expect(server.report().problems).toEqual([]);
  });

  it("implementor: asks for the model models.implementor's map chose for the run (issue #29)", async () => {
    const { runtime, server } = await start(
      {
        routes: [
          {
            name: 'implementor',
            match: { firstUserIncludes: '## Work Item #9' },
            steps: [
              {
                expect: { model: 'gpt-5-mini' },
                structuredOutput: { role: 'implementor', outcome: 'blocked', summary: 'Needs a decision.' },
              },
            ],
          },
        ],
      },
      { models: { implementor: 'gpt-5' } },
    );
    const handle = await runtime.startAgent({
      role: 'implementor',
      sessionID: 'impl-model',
      workItemID: '9',
      branchName: 'flotilla/9',
      prompt: '## Work Item #9 — Trivial\n\nDecide.',
      model: 'gpt-5-mini',
    });
    expect(await handle.result).toMatchObject({ outcome: 'blocked' });
    expect(server.report().problems).toEqual([]);
    expect(
      server.requests.map((request) => request.body).map((body) => (body as { model?: string }).model),
    ).toEqual(['gpt-5-mini']);
  });

  it('a final message that breaks the role schema fails the run, naming the field', async () => {
    const { runtime, server } = await start({
      routes: [
        {
          name: 'reviewer',
          steps: [
            {
              structuredOutput: {
                role: 'reviewer',
                review: { verdict: 'maybe', summary: 'Hmm.', comments: [] },
              },
            },
          ],
        },
      ],
    });
    const handle = await runtime.startAgent({
      role: 'reviewer',
      sessionID: 'rev-bad',
      workItemID: '7',
      revisionID: '3',
      prompt: 'Review it.',
    });
    const failure = await failureOf(handle.result);

    expect(failure.reason).toBe('error');
    expect(failure.message).toMatch(/^Invalid reviewer output: review\.verdict: /);
    // The scripted server saw the same schema violation (recorded, not refused); nothing left 127.0.0.1.
    expect(server.report().outside).toEqual([]);
    expect(server.report().unmetExpectations.length).toBe(1);
  });

  it('a final message that is not JSON fails the run, quoting its start', async () => {
    const { runtime, server } = await start({
      routes: [{ name: 'reviewer', steps: [{ text: 'Looks good to me.' }] }],
    });
    const handle = await runtime.startAgent({
      role: 'reviewer',
      sessionID: 'rev-text',
      workItemID: '7',
      revisionID: '3',
      prompt: 'Review it.',
    });
    const failure = await failureOf(handle.result);

    expect(failure.reason).toBe('error');
    expect(failure.message).toBe(
      `the reviewer's final message is not the JSON its schema asks for: "Looks good to me."`,
    );
    expect(server.report().outside).toEqual([]);
  });

  it('a missing context file refuses to start, naming it, and leaves nothing behind', async () => {
    const { runtime, server, stateDir } = await start(
      { routes: [{ name: 'any', steps: [{ text: 'unused' }] }] },
      { contextPaths: ['CONVENTIONS.md', 'docs/missing.md'] },
    );
    await expect(
      runtime.startAgent({
        role: 'implementor',
        sessionID: 'impl-missing',
        workItemID: '7',
        branchName: 'flotilla/7',
        prompt: 'Work.',
      }),
    ).rejects.toThrow(`Cannot read the project context file ${join(repo.root, 'docs/missing.md')}`);
    expect(server.requests).toEqual([]);
    expect(await runLeftovers(stateDir)).toEqual([]);
    expect(existsSync(join(repo.root, '.worktrees', 'agent', 'flotilla', '7'))).toBe(false);
  });

  it('a refused key fails the run as a credentials failure naming the variable', async () => {
    const { runtime, server } = await start({
      routes: [
        {
          name: 'any',
          steps: [
            { error: { status: 401, type: 'invalid_request_error', message: 'Incorrect API key provided' } },
          ],
        },
      ],
    });
    const handle = await runtime.startAgent({
      role: 'reviewer',
      sessionID: 'rev-401',
      workItemID: '7',
      revisionID: '3',
      prompt: 'Review it.',
    });
    const failure = await failureOf(handle.result);

    expect(failure.reason).toBe('error');
    expect(failure.message).toMatch(
      /^credentials: the reviewer could not authenticate with the model API \(/,
    );
    expect(failure.message).toContain(`Set ${SCRIPTED_KEY} for \`flotilla run\``);
    // codex retries a 401 with backoff (6 requests over ~7 s here, request_max_retries = 0 or not).
    expect(server.requests.every((request) => request.status === 401)).toBe(true);
  }, 60_000);

  it('a usage limit fails the run as a usage limit (parked by the engine, not an attempt)', async () => {
    const { runtime } = await start({
      routes: [
        {
          name: 'any',
          steps: [
            {
              error: {
                status: 429,
                type: 'usage_limit_reached',
                message: "You've hit your usage limit. Try again in 30 seconds.",
              },
            },
          ],
        },
      ],
    });
    const handle = await runtime.startAgent({
      role: 'reviewer',
      sessionID: 'rev-429',
      workItemID: '7',
      revisionID: '3',
      prompt: 'Review it.',
    });
    const failure = await failureOf(handle.result);
    expect(failure.reason).toBe('usage-limit');
  }, 90_000);

  it('cancel ends the run as cancelled and kills codex with the command it runs', async () => {
    const marker = `flotilla-codex-cancel-${process.pid}`;
    const { runtime, stateDir } = await start({
      routes: [
        {
          name: 'implementor',
          steps: [
            {
              content: [
                { type: 'tool_use', name: 'exec_command', input: { cmd: `exec -a ${marker} sleep 300` } },
              ],
            },
            // codex hands a long command back to the model after ~10 s; this reply would keep the turn
            // going far beyond the test's timeout, so only the abort can end the run in time.
            { delayMs: 120_000, text: 'never reached' },
          ],
        },
      ],
    });
    const handle = await runtime.startAgent({
      role: 'implementor',
      sessionID: 'impl-cancel',
      workItemID: '8',
      branchName: 'flotilla/8',
      prompt: 'Sleep.',
    });
    await new Promise<void>((resolve) => {
      const stop = handle.onActivity?.(() => {
        stop?.();
        resolve();
      });
    });
    // The command is running once codex reported it started; give ps a moment to see it.
    await waitFor(() => processesNamed(marker) > 0);
    expect(processesNamed(marker)).toBe(1);
    runtime.cancelAgent('impl-cancel');
    const failure = await failureOf(handle.result);

    expect(failure.reason).toBe('cancelled');
    await waitFor(() => processesNamed(marker) === 0);
    expect(processesNamed(marker)).toBe(0);
    expect(await runLeftovers(stateDir)).toEqual([]);
    expect(existsSync(join(repo.root, '.worktrees', 'agent', 'flotilla', '8'))).toBe(false);
  });

  it('validation: a failing command resumes the same thread with the errors, then passes', async () => {
    const { runtime, server } = await start(
      {
        routes: [
          {
            name: 'implementor',
            steps: [
              {
                name: 'first try',
                content: [
                  { type: 'tool_use', name: 'exec_command', input: { cmd: "printf 'one\\n' > a.txt" } },
                ],
              },
              {
                name: 'report 1',
                structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'First try.' },
              },
              {
                name: 'fix',
                expect: { lastUserIncludes: ['validation errors', 'b.txt is missing'] },
                content: [
                  { type: 'tool_use', name: 'exec_command', input: { cmd: "printf 'two\\n' > b.txt" } },
                ],
              },
              {
                name: 'report 2',
                structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Fixed.' },
              },
            ],
          },
        ],
      },
      {
        validation: {
          commands: ['test -f b.txt || { echo "b.txt is missing"; exit 1; }'],
          maxRounds: 2,
          timeoutMs: 30_000,
        },
      },
    );
    const handle = await runtime.startAgent({
      role: 'implementor',
      sessionID: 'impl-validate',
      workItemID: '9',
      branchName: 'flotilla/9',
      prompt: 'Write a.txt and b.txt.',
    });
    const result = (await handle.result) as ImplementorResult;

    expect(result).toMatchObject({ outcome: 'completed', summary: 'Fixed.' });
    expect(result.patch).toContain('+++ b/a.txt');
    expect(result.patch).toContain('+++ b/b.txt');
    // Same codex thread: one session id across both turns.
    const sessionIDs = new Set(server.requests.map((request) => request.headers['session-id']));
    expect(sessionIDs.size).toBe(1);
    expect(server.requests.map((request) => request.stepName)).toEqual([
      'first try',
      'report 1',
      'fix',
      'report 2',
    ]);
    expect(handle.usage?.()?.turns).toBe(2);
    expect(server.report().problems).toEqual([]);
  });
});

describe("codex's own sandbox (Flotilla's turned off)", () => {
  const writeScenario = (): Scenario => ({
    routes: [
      {
        name: 'implementor',
        steps: [
          {
            name: 'write',
            content: [
              { type: 'tool_use', name: 'exec_command', input: { cmd: "printf 'hi\\n' > hello.txt" } },
            ],
          },
          {
            name: 'report',
            structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Wrote hello.txt.' },
          },
        ],
      },
    ],
  });
  const startImplementor = (runtime: Awaited<ReturnType<typeof start>>['runtime']) =>
    runtime.startAgent({
      role: 'implementor',
      sessionID: 'impl-own-sandbox',
      workItemID: '7',
      branchName: 'flotilla/7',
      prompt: 'Write hello.txt.',
    });
  const off = createSandbox({ mode: 'off', networkAllow: [], passEnv: [], allowRead: [], denyRead: [] });

  it('with bubblewrap on PATH and its home under /tmp, its failing sandbox fails the run, saying why', async () => {
    expect(existsSync('/usr/bin/bwrap')).toBe(true);
    const { runtime } = await start(writeScenario(), { sandbox: off });
    const handle = await startImplementor(runtime);
    const failure = await failureOf(handle.result);
    expect(failure.message).toMatch(
      /codex's sandbox could not run commands: .*Refusing to create helper binaries/,
    );
    const transcript = await readFile(handle.logFilePath ?? '', 'utf8');
    expect(transcript).toContain("codex's sandbox failed: Refusing to create helper binaries");
    expect(transcript).toContain('WARNING: the OS sandbox is OFF');
  });

  it('without bubblewrap on PATH, its own sandbox runs the command', async () => {
    const pathDir = await mkdtemp(join(tmpdir(), 'codex-path-without-bwrap-'));
    try {
      for (const dir of ['/usr/local/bin', '/usr/bin', '/bin']) {
        for (const name of await readdir(dir).catch(() => [] as string[])) {
          if (name === 'bwrap' || existsSync(join(pathDir, name))) continue;
          await symlink(join(dir, name), join(pathDir, name));
        }
      }
      const { runtime } = await start(writeScenario(), {
        sandbox: off,
        baseEnv: { ...process.env, PATH: pathDir, [SCRIPTED_KEY]: 'dummy' },
      });
      const result = (await (await startImplementor(runtime)).result) as ImplementorResult;
      expect(result.patch).toContain('+hi');
    } finally {
      await rm(pathDir, { recursive: true, force: true });
    }
  });
});

describe("codex in Flotilla's sandbox: what the sandbox says is loud", () => {
  it('a bwrap that cannot start codex fails the run quoting bwrap, in the failure and the transcript', async () => {
    // The real sandbox with one mount bwrap cannot make: bwrap says why on stderr and codex never starts.
    const real = createTestSandbox();
    const broken: Sandbox = {
      mode: 'on',
      async wrap(request, file, args) {
        const command = await real.wrap(request, file, args);
        const end = command.args.indexOf('--');
        return {
          ...command,
          args: [
            ...command.args.slice(0, end),
            '--ro-bind',
            '/nonexistent/flotilla-test-mount',
            '/mnt',
            ...command.args.slice(end),
          ],
        };
      },
    };
    const { runtime } = await start(
      { routes: [{ name: 'any', steps: [{ structuredOutput: { role: 'planner' } }] }] },
      { sandbox: broken },
    );
    const handle = await runtime.startAgent({
      role: 'implementor',
      sessionID: 'impl-broken-sandbox',
      workItemID: '8',
      branchName: 'flotilla/8',
      prompt: 'Anything.',
    });
    const failure = await failureOf(handle.result);
    expect(failure.message).toContain(
      `the OS sandbox reported: "bwrap: Can't find source path /nonexistent/flotilla-test-mount`,
    );
    const transcript = await readFile(handle.logFilePath ?? '', 'utf8');
    expect(transcript).toContain(
      `the OS sandbox reported: "bwrap: Can't find source path /nonexistent/flotilla-test-mount`,
    );
    // Flotilla's sandbox, not codex's own (which does not run inside it), is named.
    expect(transcript).not.toContain("codex's sandbox");
    expect(failure.message).not.toContain("codex's sandbox");
    expect(openServer?.requests ?? []).toEqual([]);
  });
});

function processesNamed(name: string): number {
  const out = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.startsWith(name)).length;
}

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}
