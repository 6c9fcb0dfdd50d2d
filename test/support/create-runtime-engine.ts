import type { AgentRun } from '../../src/domain/index.ts';
import { createEngine, type Engine } from '../../src/engine/create-engine.ts';
import type { EngineConfig } from '../../src/engine/engine-config.ts';
import type { RuntimeAdapter } from '../../src/engine/runtime-contract/index.ts';
import { createBashValidatorHook } from '../../src/guards/bash-validator/index.ts';
import type { Logger } from '../../src/logging/logger.ts';
import type { ModelServer } from '../../src/model-server/index.ts';
import {
  type ClaudeAdapterConfig,
  createClaudeAdapter,
} from '../../src/runtimes/claude/create-claude-adapter.ts';
import { createTempGitRepo, type TempGitRepo } from './shared/create-temp-git-repo.ts';
import { buildAgentFile } from './track-engine-setup.ts';

type AgentRole = AgentRun['role'];

/** The tools of each role's agent definition unless a test names others. */
export const DEFAULT_AGENT_TOOLS: Record<AgentRole, string> = {
  planner: 'Read, Grep, Glob',
  implementor: 'Read, Write, Edit, Bash',
  reviewer: 'Read, Grep, Glob',
};

/**
 * A temporary git repository whose `base` commit holds the three agent definitions
 * (`.claude/agents/<role>.md`, with `tools` per role over DEFAULT_AGENT_TOOLS) and `files`.
 */
export async function createAgentRepo(
  options: { tools?: Partial<Record<AgentRole, string>>; files?: Record<string, string> } = {},
): Promise<TempGitRepo> {
  const tools = { ...DEFAULT_AGENT_TOOLS, ...options.tools };
  const repo = await createTempGitRepo();
  await repo.commit('base', {
    '.claude/agents/planner.md': buildAgentFile(tools.planner),
    '.claude/agents/implementor.md': buildAgentFile(tools.implementor),
    '.claude/agents/reviewer.md': buildAgentFile(tools.reviewer),
    ...options.files,
  });
  return repo;
}

/**
 * The real Claude adapter for an engine test: agent state and transcripts under the repository's
 * `.flotilla/`, the bash validator on, no setup command, `server` as the model endpoint. `overrides` replace
 * fields, except `extraEnv`, which is added to the endpoint's variables.
 */
export function createTestClaudeAdapter(
  repo: TempGitRepo,
  server: ModelServer,
  logger: Logger,
  overrides: Partial<ClaudeAdapterConfig> = {},
): RuntimeAdapter {
  return createClaudeAdapter({
    repoRoot: repo.root,
    defaultBranch: 'main',
    contextPaths: [],
    bashValidatorHook: createBashValidatorHook(),
    logger,
    setupCommand: 'none',
    stateDir: `${repo.root}/.flotilla/claude`,
    maxAgentDuration: 120,
    logging: { agentSessions: true, logsDir: `${repo.root}/.flotilla/logs` },
    ...overrides,
    extraEnv: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key', ...overrides.extraEnv },
  });
}

/**
 * An engine with one runtime adapter (made by `createAdapter` when the engine asks) for every role. Poll
 * timers are effectively off — tests add work to the provider and the engine reacts to its events — and
 * stop() waits up to 30 s for runs to end. Other EngineConfig fields pass through.
 */
export function createSingleRuntimeEngine(
  config: Omit<EngineConfig, 'createRuntimeAdapters'> & { createAdapter: () => RuntimeAdapter },
): Engine {
  const { createAdapter, ...rest } = config;
  return createEngine({
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 30,
    ...rest,
    createRuntimeAdapters: () => {
      const adapter = createAdapter();
      return { planner: adapter, implementor: adapter, reviewer: adapter };
    },
  });
}
