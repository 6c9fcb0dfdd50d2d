import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { WorkItem } from '../../src/domain/index.ts';
import { assembleAgentContext } from '../../src/engine/context-assembly/assemble-agent-context.ts';
import type {
  AgentRunHandle,
  AgentRunRequest,
  AgentStartParams,
  RuntimeAdapter,
} from '../../src/engine/runtime-contract/index.ts';
import { buildInitialEngineState, type EngineState } from '../../src/engine/state-store/engine-state.ts';
import { createBashValidatorHook } from '../../src/guards/bash-validator/index.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import { createModelServer, type ModelServer } from '../../src/model-server/index.ts';
import type { ScenarioSpec } from '../../src/model-server/scenario-schema.ts';
import { runGit } from '../../src/process/run-command.ts';
import {
  type ClaudeAdapterConfig,
  createClaudeAdapter,
} from '../../src/runtimes/claude/create-claude-adapter.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
} from './in-memory-provider/create-in-memory-provider.ts';
import { createTempGitRepo, type TempGitRepo } from './shared/create-temp-git-repo.ts';

/**
 * Shared set-up for the Claude adapter's real-SDK tests: a temp git repo with agent definitions, a spec and
 * a few files; an in-memory tracker with work item #1; and an adapter wired to a scripted model server.
 * Call `installClaudeAdapterFixture()` at the top of a test file.
 */
const AGENT_FILE = (tools: string) => `---
description: test agent
tools: ${tools}
model: inherit
---
You are a test agent.
`;

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'Agent',
  GIT_AUTHOR_EMAIL: 'agent@flotilla.invalid',
  GIT_COMMITTER_NAME: 'Agent',
  GIT_COMMITTER_EMAIL: 'agent@flotilla.invalid',
};

export interface Fixture {
  repo: TempGitRepo;
  baseCommit: string;
  provider: InMemoryProvider;
  state: EngineState;
  stateDir: string;
  server: ModelServer | null;
}

export const fixture = {} as Fixture;

export function installClaudeAdapterFixture(): void {
  beforeEach(async () => {
    const repo = await createTempGitRepo();
    const baseCommit = await repo.commit('base', {
      '.claude/agents/planner.md': AGENT_FILE('Read, Grep, Glob, Bash'),
      '.claude/agents/implementor.md': AGENT_FILE('Read, Write, Edit, Grep, Glob, Bash'),
      '.claude/agents/reviewer.md': AGENT_FILE('Read, Grep, Glob, Bash'),
      '.claude/CLAUDE.md': 'Project conventions: be exact.\n',
      'docs/specs/feature.md': '---\nstatus: approved\n---\n# Feature\nThe app greets.\n',
      'src/existing.txt': 'line one\nline two\n',
      'src/remove-me.txt': 'obsolete\n',
    });
    const provider = createInMemoryProvider();
    const item = provider.control.addWorkItem({
      title: 'Greet the user',
      body: 'Objective: greet.',
      status: 'ready',
    });
    const state = buildInitialEngineState({ workItems: { [item.id]: item as WorkItem } });
    Object.assign(fixture, {
      repo,
      baseCommit,
      provider,
      state,
      stateDir: await mkdtemp(join(tmpdir(), 'flotilla-state-')),
      server: null,
    });
  });

  afterEach(async () => {
    await fixture.server?.close();
    await fixture.repo.cleanup();
    await rm(fixture.stateDir, { recursive: true, force: true });
  });
}

export async function adapterFor(
  scenario: ScenarioSpec,
  options: {
    maxAgentDuration?: number;
    permissive?: boolean;
    transcripts?: boolean;
    setupCommand?: string;
    validation?: { commands: string[]; maxRounds: number; timeoutMs?: number };
  } = {},
): Promise<FixtureAdapter> {
  fixture.server = await createModelServer(scenario);
  const adapter = createClaudeAdapter({
    repoRoot: fixture.repo.root,
    defaultBranch: 'main',
    contextPaths: ['.claude/CLAUDE.md'],
    bashValidatorHook: options.permissive ? async () => ({}) : createBashValidatorHook(),
    logger: createRecordingLogger(),
    setupCommand: options.setupCommand ?? 'none',
    stateDir: fixture.stateDir,
    maxAgentDuration: options.maxAgentDuration ?? 120,
    logging: { agentSessions: options.transcripts ?? false, logsDir: join(fixture.stateDir, 'logs') },
    extraEnv: { ANTHROPIC_BASE_URL: fixture.server.url, ANTHROPIC_API_KEY: 'test-key', ...GIT_IDENTITY },
    ...(options.validation && {
      validation: { timeoutMs: 30_000, ...options.validation },
    }),
  });
  return {
    runtime: adapter.runtime,
    cancelAgent: adapter.cancelAgent,
    startAgent: async (request) => adapter.startAgent(await startParamsFor(request)),
  };
}

/**
 * The Claude adapter alone on the fixture's repository and state dir — no context paths, no transcripts, the
 * bash validator on — for tests that start runs with params they build themselves. `config` adds the
 * environment (the model endpoint) and replaces any other field.
 */
export function createBareClaudeAdapter(
  config: Pick<ClaudeAdapterConfig, 'extraEnv'> & Partial<ClaudeAdapterConfig>,
): RuntimeAdapter {
  return createClaudeAdapter({
    repoRoot: fixture.repo.root,
    defaultBranch: 'main',
    contextPaths: [],
    bashValidatorHook: createBashValidatorHook(),
    logger: createRecordingLogger(),
    setupCommand: 'none',
    stateDir: fixture.stateDir,
    maxAgentDuration: 120,
    logging: { agentSessions: false, logsDir: fixture.stateDir },
    ...config,
  });
}

/** A planner run of the fixture's approved spec, as the engine would start it. */
export function plannerStartParams(): Promise<AgentStartParams> {
  return startParamsFor({
    role: 'planner',
    sessionID: crypto.randomUUID(),
    specPaths: ['docs/specs/feature.md'],
  });
}

/** What the run failed with (its result's rejection), or null when it succeeded. */
export function failureOf(handle: AgentRunHandle): Promise<unknown> {
  return handle.result.then(
    () => null,
    (caught: unknown) => caught,
  );
}

/** A run request as the tests write it: a planner's spec SHAs default to the specs' committed blobs. */
export type FixtureRunRequest =
  | Exclude<AgentRunRequest, { role: 'planner' }>
  | { role: 'planner'; sessionID: string; specPaths: string[]; specSHAs?: Record<string, string> };

/** The Claude adapter behind the engine's own context assembly: the tests start runs as the engine does. */
export interface FixtureAdapter {
  runtime: string | undefined;
  startAgent(request: FixtureRunRequest): Promise<AgentRunHandle>;
  cancelAgent(sessionID: string): void;
}

/** What the engine would give the runtime: the request plus the prompt context assembly builds. */
export async function startParamsFor(request: FixtureRunRequest): Promise<AgentStartParams> {
  const git = async (args: string[]) => (await runGit(args, { cwd: fixture.repo.root })).stdout;
  const complete: AgentRunRequest =
    request.role === 'planner' && request.specSHAs === undefined
      ? {
          ...request,
          specSHAs: Object.fromEntries(
            await Promise.all(
              request.specPaths.map(async (path) => [
                path,
                (await git(['rev-parse', `HEAD:${path}`])).trim(),
              ]),
            ),
          ),
        }
      : (request as AgentRunRequest);
  return assembleAgentContext(complete, {
    getState: () => fixture.state,
    workItemReader: fixture.provider.workItemReader,
    revisionReader: fixture.provider.revisionReader,
    // The specs live in the fixture's git repository (the local provider reads them the same way).
    specReader: { readSpecBlob: (sha) => git(['cat-file', 'blob', sha]) },
  });
}

/** Where the implementor of work item #1 (branch flotilla/1) works: its scratch branch and worktree. */
export const AGENT_BRANCH = 'agent/flotilla/1';
export const AGENT_WORKTREE = '.worktrees/agent/flotilla/1';

export const implementorParams = {
  role: 'implementor' as const,
  sessionID: crypto.randomUUID(),
  workItemID: '1',
  branchName: 'flotilla/1',
};

export function branchExists(name: string): boolean {
  const out = execFileSync('git', ['branch', '--list', name], { cwd: fixture.repo.root }).toString();
  return out.trim() !== '';
}

export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(marker) && Number(entry) !== process.pid) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

export async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
