import { existsSync } from 'node:fs';
import { type AgentEnvAccount, parseVariableReference } from '../../guards/agent-env/build-agent-env.ts';
import { createSessionLogFactory } from '../../session-log/create-session-log-factory.ts';
import { createClaudeConfigSeed } from '../shared/create-claude-config-seed.ts';
import { createRunShell, type ShellRuntime } from '../shared/create-run-shell.ts';
import { checkClaudeAvailability } from './check-claude-availability.ts';
import type { ClaudeAdapterConfig } from './claude-adapter-config.ts';
import { findClaudeExecutable } from './find-claude-executable.ts';
import { prepareClaudeTurn } from './prepare-claude-turn.ts';
import { toSdkHook } from './to-sdk-hook.ts';

export type { ClaudeAdapterConfig, SessionLogFactory } from './claude-adapter-config.ts';

/**
 * The implementor's scratch branch (and worktree path). It lives under `agent/` rather than on the run's
 * branch itself: providers that keep revisions as local branches (the local provider's `flotilla/<id>`)
 * must not see their branch reset to the default branch and deleted while a rework runs.
 */
export function buildAgentBranchName(branchName: string): string {
  return `agent/${branchName}`;
}

/**
 * The RuntimeAdapter for Claude (docs/runtime-spec.md §Seed 001): implementor worktrees, the engine's finished prompt as the user
 * message, inline agent definitions, structured output validated with Zod, the bash validator and the path
 * guard as PreToolUse hooks, live text output, duration timeout and cancel keyed by the engine's session ID
 * (also the SDK session ID). The run itself is the shared run shell's; its turn is prepare-claude-turn.ts.
 */
export function createClaudeAdapter(config: ClaudeAdapterConfig): ShellRuntime {
  const { logger } = config;
  const configSeed = createClaudeConfigSeed();
  /** Found at the first run or preflight, then kept (see find-claude-executable.ts). */
  let executable: string | null | undefined;
  const claudeExecutable = () => {
    if (executable === undefined) executable = findClaudeExecutable();
    return executable;
  };
  const accountSources = Object.values(config.accounts ?? {}).flatMap((env) =>
    Object.values(env).flatMap((reference) => parseVariableReference(reference) ?? []),
  );
  const context = {
    config,
    bashHook: toSdkHook(config.bashValidatorHook, logger),
    configSeed,
    claudeExecutable,
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    accountEnvOf: (name: string): AgentEnvAccount => {
      const env = config.accounts?.[name];
      if (env === undefined) throw new Error(`account '${name}' is not configured for this runtime`);
      return { name, env, allSources: accountSources };
    },
  };

  return createRunShell(
    {
      ...config,
      runtime: config.runtime ?? 'claude',
      createSessionLog:
        config.createSessionLog ??
        (config.logging.agentSessions
          ? createSessionLogFactory({
              logsDir: config.logging.logsDir,
              enabled: true,
              logger,
              maxBytes: config.logging.maxRunBytes,
            })
          : null),
    },
    {
      continues: 'session',
      // A resumed run continues in the kept state dir (the SDK's conversation is there) and worktree.
      keepsRunDir: true,
      // Its path guard and bash validator refuse writes in investigate and refine runs (provision-claude-run.ts).
      runsReadOnlyModes: true,
      returnsWhenStarted: true,
      worktreeFor: (params) =>
        params.role === 'implementor' ? { branchName: buildAgentBranchName(params.branchName) } : null,
      checkResume(session) {
        if (session.agentSessionID === null) throw new Error('the session to resume has no SDK session id');
        if (session.worktree !== null && !existsSync(session.worktree.path)) {
          throw new Error(`the kept worktree of the session to resume is gone (${session.worktree.path})`);
        }
      },
      prepare: (setup) => prepareClaudeTurn(context, setup),
      checkAvailability: () =>
        checkClaudeAvailability(
          { ...(config.baseEnv ?? process.env), ...config.extraEnv },
          claudeExecutable(),
        ),
    },
  );
}
