import { existsSync } from 'node:fs';
import type { AgentStartParams } from '../../engine/runtime-contract/index.ts';
import type { SessionLog } from '../../session-log/create-session-log.ts';
import { createSessionLogFactory } from '../../session-log/create-session-log-factory.ts';
import { createClaudeConfigSeed } from '../shared/create-claude-config-seed.ts';
import { createRunShell, type ShellRuntime } from '../shared/create-run-shell.ts';
import { checkCliAvailability } from './check-cli-availability.ts';
import { type CliPreset, resolveCliPreset } from './cli-presets.ts';
import type { CliRuntimeConfig } from './cli-runtime-config.ts';
import { prepareCliTurn } from './prepare-cli-turn.ts';

export type { CliRuntimeConfig } from './cli-runtime-config.ts';

/**
 * The generic CLI runtime (issue 13): runs an agent CLI through a preset in a worktree of its own, takes
 * completion from the signal file `.flotilla/signal.json`, re-prompts once when a round ends without a valid
 * signal, validates the result against the role's schema, and refuses implementor patches that touch
 * protected paths. There are no tool hooks: the guards here are the scrubbed environment, the post-run
 * checks and the time limit (README.md says what that cannot cover). The run itself is the shared run
 * shell's; its turn is prepare-cli-turn.ts.
 */
export function createCliRuntime(config: CliRuntimeConfig): ShellRuntime {
  const { logger } = config;
  const preset: CliPreset = resolveCliPreset(config.preset, config.customPreset);
  const context = {
    config,
    preset,
    claudeConfigSeed: createClaudeConfigSeed(),
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
  };
  const makeSessionLog: (params: AgentStartParams) => SessionLog =
    config.createSessionLog ??
    createSessionLogFactory({
      logsDir: config.logging.logsDir,
      enabled: config.logging.agentSessions,
      logger,
      maxBytes: config.logging.maxRunBytes,
    });

  return createRunShell(
    { ...config, runtime: config.runtime ?? `cli:${config.preset}`, createSessionLog: makeSessionLog },
    {
      continues: 'session',
      // A resumed run continues in the kept worktree and state directory (the tool's conversation is there).
      keepsRunDir: true,
      returnsWhenStarted: false,
      // Planner and reviewer get a checkout too (their signal files must not collide, and they must not
      // touch the user's working tree), without the setup command: they build nothing.
      worktreeFor: (params) =>
        params.role === 'implementor'
          ? { branchName: `agent/${params.branchName}`, setup: true }
          : { branchName: `agent/${params.role}/${params.sessionID}`, setup: false },
      checkResume(session) {
        if (session.worktree === null || !existsSync(session.worktree.path)) {
          throw new Error(`the kept worktree of the session to resume is gone (${session.worktree?.path})`);
        }
      },
      prepare: (setup) => prepareCliTurn(context, setup),
      // Read-only modes: the worktree bound read-only by the OS sandbox (refused with the sandbox off).
      runsReadOnlyModes: true,
      checkAvailability: () =>
        checkCliAvailability({
          presetName: config.preset,
          preset,
          ...(config.program !== undefined && { program: config.program }),
          env: { ...(config.baseEnv ?? process.env), ...config.extraEnv },
          cwd: config.repoRoot,
        }),
    },
  );
}
