/**
 * Questions on the Codex runtime, with the real codex binary against the scripted Responses endpoint: the
 * agent answers `outcome: "questions"` (an option of its strict output schema), the run keeps its worktree
 * and thread, and the resume continues the SAME codex thread (`resumeThread`) with the answers as the next
 * user message — the scripted route refuses the request unless the answers are in it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAgentQuestions } from '../../../src/domain/index.ts';
import type { AgentStartParams } from '../../../src/engine/runtime-contract/index.ts';
import { createRecordingLogger } from '../../../src/logging/logger.ts';
import { createModelServer, type ModelServer, type Scenario } from '../../../src/model-server/index.ts';
import { createCodexRuntime } from '../../../src/runtimes/codex/create-codex-runtime.ts';
import { createTempGitRepo, type TempGitRepo } from '../../support/shared/create-temp-git-repo.ts';
import { createTestSandbox } from '../../support/test-sandbox.ts';

const SCRIPTED_KEY = 'FLOTILLA_SCRIPTED_API_KEY';

let repo: TempGitRepo;
let logsDir: string;
let openServer: ModelServer | undefined;

beforeEach(async () => {
  repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# scratch\n' });
  logsDir = await mkdtemp(join(tmpdir(), 'codex-questions-logs-'));
});
afterEach(async () => {
  await openServer?.close();
  openServer = undefined;
  await repo.cleanup();
  await rm(logsDir, { recursive: true, force: true });
});

async function start(scenario: Scenario) {
  openServer = await createModelServer(scenario);
  const stateDir = join(repo.root, '.flotilla', 'codex');
  const runtime = createCodexRuntime({
    sandbox: createTestSandbox(),
    repoRoot: repo.root,
    defaultBranch: 'main',
    logger: createRecordingLogger(),
    stateDir,
    model: 'scripted',
    provider: { id: 'flotilla-scripted', baseUrl: `${openServer.url}/v1`, envKey: SCRIPTED_KEY },
    baseEnv: { ...process.env, [SCRIPTED_KEY]: 'dummy' },
    setupCommand: 'none',
    maxAgentDuration: 120,
    logging: { agentSessions: true, logsDir },
    runtime: 'scripted',
  });
  return { runtime, server: openServer, stateDir };
}

/** What threads left under the runtime's CODEX_HOMEs: rollout files, and the usage kept while one waits. */
async function threadFiles(stateDir: string): Promise<string[]> {
  const entries = await readdir(join(stateDir, 'runs'), { recursive: true }).catch(() => [] as string[]);
  return entries.filter((entry) => /\/sessions\/.*\.jsonl$|\/thread-usage\.json$/.test(entry));
}

const implementor = (): AgentStartParams => ({
  role: 'implementor',
  sessionID: crypto.randomUUID(),
  prompt: '## Work Item #7 — Greet\n\nObjective: greet.\n',
  workItemID: '7',
  branchName: 'flotilla/7',
});

const asking = (after: Scenario['routes'][number]['steps']): Scenario => ({
  name: 'codex-questions',
  onUnmetExpectation: 'reject',
  routes: [
    {
      name: 'implementor',
      match: { firstUserIncludes: '## Work Item #7', systemIncludes: 'outcome: "questions"' },
      steps: [
        {
          content: [
            { type: 'tool_use', name: 'exec_command', input: { cmd: "printf 'half\\n' > half.txt" } },
          ],
        },
        // `summary` is left out: the server sends it as null, as a strict-mode model would.
        {
          structuredOutput: {
            role: 'implementor',
            outcome: 'questions',
            questions: ['Which greeting: hello or hi?'],
          },
        },
        ...after,
      ],
    },
  ],
});

describe('codex runtime: questions → answers → the same thread resumes', () => {
  it('keeps worktree and thread on questions, resumes the thread with the answers and completes', async () => {
    const { runtime, server, stateDir } = await start(
      asking([
        {
          expect: { lastUserIncludes: ['A human answered your questions', 'Say hello.'] },
          content: [
            { type: 'tool_use', name: 'exec_command', input: { cmd: "printf 'hello\\n' > greeting.txt" } },
          ],
        },
        { structuredOutput: { role: 'implementor', outcome: 'completed', summary: 'Greets.' } },
      ]),
    );
    const first = await runtime.startAgent(implementor());
    const asked = await first.result;
    if (!isAgentQuestions(asked)) throw new Error(`expected questions, got ${JSON.stringify(asked)}`);
    expect(asked.questions).toEqual(['Which greeting: hello or hi?']);
    expect(asked.session.runtime).toBe('scripted');
    const worktree = asked.session.worktree?.path ?? '';
    expect(readFileSync(join(worktree, 'half.txt'), 'utf8')).toBe('half\n');
    expect(await threadFiles(stateDir)).toHaveLength(2);
    const askingUsage = first.usage?.();

    const resumed = await runtime.startAgent({
      ...implementor(),
      resume: { session: asked.session, questions: asked.questions, answers: 'Say hello.', sessionNumber: 2 },
    });
    const result = await resumed.result;
    if (result.role !== 'implementor') throw new Error(`expected a result, got ${JSON.stringify(result)}`);
    expect(result.outcome).toBe('completed');
    expect(result.patch).toContain('b/half.txt');
    expect(result.patch).toContain('b/greeting.txt');
    expect(server.report().problems).toEqual([]);
    // The same thread: codex sent the asking turns as history, under the same thread id.
    const requests = server.requestsFor('implementor');
    expect(new Set(requests.map((request) => request.headers['session-id']))).toEqual(
      new Set([asked.session.agentSessionID]),
    );
    expect(readFileSync(resumed.logFilePath ?? '', 'utf8')).toContain(
      'session 2: resuming the same codex thread',
    );
    // The resumed run reports only its own turns (codex's thread usage counts the asking run's too).
    expect(resumed.usage?.()?.inputTokens).toBe(200);
    expect(askingUsage?.inputTokens).toBe(200);
    // Done: the worktree and the thread's rollout go, as after any run.
    expect(existsSync(worktree)).toBe(false);
    expect(await threadFiles(stateDir)).toEqual([]);
  }, 180_000);

  it('discardSession removes the kept worktree and thread', async () => {
    const { runtime, stateDir } = await start(asking([]));
    const asked = await (await runtime.startAgent(implementor())).result;
    if (!isAgentQuestions(asked)) throw new Error(`expected questions, got ${JSON.stringify(asked)}`);
    expect(await threadFiles(stateDir)).toHaveLength(2);
    await runtime.discardSession?.(asked.session);
    expect(existsSync(asked.session.worktree?.path ?? '')).toBe(false);
    expect(await threadFiles(stateDir)).toEqual([]);
  }, 180_000);
});
