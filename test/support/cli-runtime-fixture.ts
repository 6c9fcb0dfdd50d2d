import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { KeptSession } from '../../src/domain/index.ts';
import type { RuntimeAdapter } from '../../src/engine/runtime-contract/index.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { type CliRuntimeConfig, createCliRuntime } from '../../src/runtimes/cli/create-cli-runtime.ts';
import type { FakeAgentCall, FakeAgentRound } from './cli-runtime/fake-agent-cli.ts';
import { createTempGitRepo, type TempGitRepo } from './shared/create-temp-git-repo.ts';

const FAKE_AGENT = fileURLToPath(new URL('./cli-runtime/fake-agent-cli.ts', import.meta.url));
/** tsx's loader by absolute URL: the agent runs in a worktree, where `tsx` does not resolve. */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The fake agent as a preset's program: node with tsx, then the preset's own arguments. */
export const FAKE_AGENT_PROGRAM = [process.execPath, '--import', TSX_LOADER, FAKE_AGENT];

export interface CliRuntimeFixture {
  repo: TempGitRepo;
  dir: string;
  logsDir: string;
  /** Writes the fake agent's script; returns the runtime running it with the given config overrides. */
  runtimeFor(
    rounds: FakeAgentRound[],
    overrides?: Partial<CliRuntimeConfig>,
  ): Promise<ReturnType<typeof createCliRuntime>>;
  /** What each invocation of the fake agent was given, in order. */
  calls(): FakeAgentCall[];
  cleanup(): Promise<void>;
}

export async function createCliRuntimeFixture(): Promise<CliRuntimeFixture> {
  const repo = await createTempGitRepo();
  await repo.commit('initial', { 'README.md': '# demo\n', 'src/index.ts': 'export const a = 1;\n' });
  const dir = await mkdtemp(join(tmpdir(), 'flotilla-cli-runtime-'));
  const scriptPath = join(dir, 'script.json');
  const logsDir = join(dir, 'logs');
  return {
    repo,
    dir,
    logsDir,
    async runtimeFor(rounds, overrides = {}) {
      await writeFile(scriptPath, JSON.stringify({ rounds }));
      return createCliRuntime({
        repoRoot: repo.root,
        defaultBranch: 'main',
        logger: createRecordingLogger(),
        stateDir: join(dir, 'state'),
        preset: 'claude',
        program: FAKE_AGENT_PROGRAM,
        setupCommand: 'none',
        maxAgentDuration: 120,
        logging: { agentSessions: true, logsDir },
        baseEnv: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          FAKE_AGENT_SCRIPT: scriptPath,
          ANTHROPIC_API_KEY: 'sk-ant-test-model-key',
          GEMINI_API_KEY: 'gemini-test-model-key',
          GITHUB_TOKEN: 'ghp_tracker_token_agents_must_not_see',
          AWS_SECRET_ACCESS_KEY: 'aws-secret',
        },
        // The fake agent's script: not one of the variables every agent gets, so passed by name.
        passThroughEnv: ['FAKE_AGENT_SCRIPT'],
        ...overrides,
      });
    },
    calls() {
      const path = `${scriptPath}.calls.jsonl`;
      if (!existsSync(path)) return [];
      return readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as FakeAgentCall);
    },
    async cleanup() {
      await repo.cleanup();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function implementorParams(prompt = 'Implement the feature.') {
  return {
    role: 'implementor' as const,
    sessionID: randomUUID(),
    prompt,
    workItemID: '7',
    branchName: 'flotilla/7',
  };
}

export function reviewerParams(prompt = 'Review revision 3.') {
  return { role: 'reviewer' as const, sessionID: randomUUID(), prompt, workItemID: '7', revisionID: '3' };
}

export const COMPLETED = {
  status: 'done',
  result: { outcome: 'completed', summary: 'added the feature' },
};

export const APPROVED = {
  status: 'done',
  result: { role: 'reviewer', review: { verdict: 'approve', summary: 'fine', comments: [] } },
};

/** Reads the whole output stream. */
export async function readAll(stream: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

/**
 * The implementor of work item #1 asks "Which database?"; answered, it resumes and adds `src/db.js`. The
 * questions tests' fake agent rounds (append rounds of their own after these).
 */
export const ASKING_IMPLEMENTOR_ROUNDS: FakeAgentRound[] = [
  {
    promptIncludes: 'A human answered your questions',
    steps: [
      { write: { path: 'src/db.js', content: 'export const db = 1;\n' } },
      { signal: { status: 'done', result: { outcome: 'completed', summary: 'db added' } } },
    ],
  },
  {
    promptIncludes: '## Work Item #1',
    steps: [{ signal: { status: 'questions', questions: ['Which database?'] } }],
  },
];

/** The runtime with its own discardSession counted: each call removes a worktree and a state directory. */
export function withCountedDiscards<Runtime extends Pick<RuntimeAdapter, 'discardSession'>>(
  runtime: Runtime,
): { runtime: Runtime; discarded: KeptSession[] } {
  const discarded: KeptSession[] = [];
  return {
    discarded,
    runtime: {
      ...runtime,
      async discardSession(session: KeptSession) {
        discarded.push(session);
        await runtime.discardSession?.(session);
      },
    },
  };
}
