import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { buildOutputJsonSchema } from '../../src/engine/runtime-contract/index.ts';
import { createBashValidatorHook } from '../../src/guards/bash-validator/index.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { buildModelServerEnv, createModelServer } from '../../src/model-server/index.ts';
import { createClaudeAdapter } from '../../src/runtimes/claude/create-claude-adapter.ts';
import { findClaudeExecutable } from '../../src/runtimes/claude/find-claude-executable.ts';
import type { Sandbox } from '../../src/sandbox/sandbox-types.ts';
import { createTempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import {
  BENCH_PROMPT,
  BLOCKED_OUTPUT,
  createBareLaps,
  createBenchSandbox,
  createBenchWorktrees,
  expectBlocked,
  implementorParams,
  type MakeOverheadPair,
} from './overhead-pair.ts';

/** The Claude adapter (worktree, agent definition, hooks, cleanup) vs a bare `query()`. */
export const claudePair: MakeOverheadPair = async ({ onPhase, prepareAhead, bareBinary }) => {
  const server = await createModelServer({
    name: 'one-step',
    routes: [{ name: 'any', steps: [{ structuredOutput: BLOCKED_OUTPUT }] }],
  });
  const repo = await createTempGitRepo();
  await repo.commit('base', {
    '.claude/agents/implementor.md':
      '---\ndescription: bench\ntools: Read, Write, Edit, Bash\n---\nYou implement.\n',
    '.claude/CLAUDE.md': 'Conventions.\n',
  });
  const worktrees = createBenchWorktrees(repo.root, prepareAhead);
  const stateDir = await mkdtemp(join(tmpdir(), 'flotilla-bench-'));
  const makeAdapter = (sandbox?: Sandbox) =>
    createClaudeAdapter({
      repoRoot: repo.root,
      defaultBranch: 'main',
      worktrees,
      contextPaths: ['.claude/CLAUDE.md'],
      bashValidatorHook: createBashValidatorHook(),
      logger: silentLogger,
      setupCommand: 'none',
      stateDir,
      maxAgentDuration: 120,
      logging: { agentSessions: false, logsDir: join(stateDir, 'logs') },
      extraEnv: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' },
      onPhase,
      ...(sandbox !== undefined && { sandbox }),
    });
  const adapters = { off: makeAdapter(), on: makeAdapter(createBenchSandbox()) };
  const bareEnv = buildModelServerEnv({ baseUrl: server.url, stateDir: join(stateDir, 'bare') });
  const executable = bareBinary === 'given' ? findClaudeExecutable() : null;
  if (bareBinary === 'given' && executable === null)
    throw new Error('--bare-binary given: the Claude Agent SDK has no native binary installed here');

  return {
    bareLabel: executable === null ? 'a bare query()' : 'a bare query() given the binary',
    runtimeLabel: 'the Claude adapter',
    repoRoot: repo.root,
    async bare(cwd, onBarePhase) {
      const lap = createBareLaps('bare', onBarePhase);
      let first = true;
      for await (const message of query({
        prompt: BENCH_PROMPT,
        options: {
          cwd,
          env: bareEnv,
          permissionMode: 'bypassPermissions',
          allowDangerouslySkipPermissions: true,
          settingSources: [],
          persistSession: false,
          ...(executable !== null && { pathToClaudeCodeExecutable: executable }),
          outputFormat: { type: 'json_schema', schema: buildOutputJsonSchema('implementor') },
        },
      })) {
        if (first) lap('spawn-to-first-message');
        first = false;
        if (message.type === 'result') lap('first-message-to-result');
        if (
          message.type === 'result' &&
          (message.subtype !== 'success' || message.structured_output === undefined)
        ) {
          throw new Error('bare session returned no structured output');
        }
      }
      lap('result-to-exit');
    },
    runsCommands: false,
    async throughRuntime({ sandboxed }) {
      const handle = await adapters[sandboxed ? 'on' : 'off'].startAgent(implementorParams());
      expectBlocked(await handle.result);
    },
    idle: () => worktrees.idle(),
    async close() {
      await worktrees.settle();
      await server.close();
      await repo.cleanup();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
};
