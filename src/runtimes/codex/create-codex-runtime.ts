import { join } from 'node:path';
import { createSessionLogFactory } from '../../session-log/create-session-log-factory.ts';
import { createRunShell, type ShellRuntime } from '../shared/create-run-shell.ts';
import { OPENAI_KEY_VARIABLES } from './build-codex-env.ts';
import { checkCodexAvailability } from './check-codex-availability.ts';
import type { CodexRuntimeConfig } from './codex-runtime-config.ts';
import { createCodexHomes } from './create-codex-homes.ts';
import { prepareCodexTurn } from './prepare-codex-turn.ts';
import { checkKeptCodexSession } from './provision-codex-run.ts';

export type { CodexRuntimeConfig } from './codex-runtime-config.ts';

/**
 * The implementor's scratch branch: under `agent/`, so a provider keeping revisions as local branches never
 * sees its branch reset or deleted (the same rule as the Claude runtime).
 */
export function buildCodexAgentBranchName(branchName: string): string {
  return `agent/${branchName}`;
}

/**
 * The Codex runtime (issue 13): each run drives the `codex` binary of `@openai/codex-sdk` with a per-run
 * CODEX_HOME under `stateDir`, the role's instructions and strict output schema, codex's sandbox
 * (`workspace-write` in the implementor's worktree, `read-only` in the repository for planner and reviewer,
 * no network, no approvals) and a scrubbed environment. Events stream into the live output and transcript;
 * the final agent message is the role's result, validated as untrusted input. The run itself is the
 * shared run shell's; its turn is prepare-codex-turn.ts.
 */
export function createCodexRuntime(config: CodexRuntimeConfig): ShellRuntime {
  const { logger } = config;
  const runtime = config.runtime ?? 'codex';
  // One per run: the agent writes its CODEX_HOME, and the next run must not read what it planted there.
  const homes = createCodexHomes(join(config.stateDir, 'runs'));
  const context = {
    config,
    homes,
    modelKeyVariables: config.provider ? [config.provider.envKey] : [...OPENAI_KEY_VARIABLES],
  };
  return createRunShell(
    {
      ...config,
      runtime,
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
      continues: 'thread',
      // The launcher script, codex's stderr, the sandbox's git dir; the kept state is the CODEX_HOME's.
      runDirName: (sessionID) => `run-${sessionID}`,
      keepsRunDir: false,
      returnsWhenStarted: true,
      worktreeFor: (params) =>
        params.role === 'implementor' ? { branchName: buildCodexAgentBranchName(params.branchName) } : null,
      checkResume: (session) => checkKeptCodexSession(session, runtime),
      prepare: (setup) => prepareCodexTurn(context, setup),
      checkAvailability: () =>
        checkCodexAvailability({
          env: { ...(config.baseEnv ?? process.env), ...config.extraEnv },
          ...(config.provider !== undefined && { provider: config.provider }),
          ...(config.codexPath !== undefined && { codexPath: config.codexPath }),
        }),
      removeState: (stateDir) => homes.remove(stateDir),
      // Read-only modes: the worktree bound read-only by the OS sandbox, and codex's `read-only` sandbox.
      runsReadOnlyModes: true,
    },
  );
}
