import { join } from 'node:path';
import type { AgentEnvAccount } from '../../guards/agent-env/build-agent-env.ts';
import { buildAgentEnv } from '../../guards/agent-env/build-agent-env.ts';
import { killProcessesWithEnv } from '../../process/kill-processes-with-env.ts';
import type { SandboxedCommand } from '../../sandbox/sandbox-types.ts';
import { messageOf } from '../../shared/message-of.ts';
import { buildPortEnv } from '../../workspace/build-port-env.ts';
import { WORKTREES_DIR } from '../../workspace/create-worktree-manager.ts';
import type { TurnSetup } from '../shared/agent-turn.ts';
import { buildAgentSandboxRequest } from '../shared/build-agent-sandbox-request.ts';
import type { ClaudeConfigSeed } from '../shared/create-claude-config-seed.ts';
import { buildRunGuards } from './build-run-guards.ts';
import type { ClaudeAdapterConfig } from './claude-adapter-config.ts';
import { loadAgentDefinition } from './load-agent-definition.ts';
import { buildModeAgentFile } from './mode-agent-files.ts';
import { toSdkHook } from './to-sdk-hook.ts';

/** What the adapter shares between its runs. */
export interface ClaudeTurnContext {
  config: ClaudeAdapterConfig;
  /** The bash validator as an SDK hook. */
  bashHook: ReturnType<typeof toSdkHook>;
  configSeed: ClaudeConfigSeed;
  /** The claude CLI binary; null: the SDK looks for itself. */
  claudeExecutable(): string | null;
  isRoot: boolean;
  accountEnvOf(name: string): AgentEnvAccount;
}

/** The run's environment, sandbox and config dir: what the SDK session is started with. */
export async function provisionClaudeRun(context: ClaudeTurnContext, setup: TurnSetup) {
  const { config } = context;
  const { params, role, clock, worktree, runDir: runStateDir } = setup;
  let sandboxed: SandboxedCommand | null = null;
  setup.onRelease(async (kept) => {
    await sandboxed?.dispose().catch(() => {});
    // A kept session keeps its state for the resume (not its sandbox: the resume makes its own).
    if (kept) return;
    // What the run left running ends with it: the CLI after a cancel or timeout (it is given seconds to
    // exit), and the Bash tools it runs in sessions of their own, which it does not always end first.
    // Marked by the run's own config dir only: an account's shared one would match other runs. The /proc
    // scan (milliseconds, synchronous) runs a turn later, once the result is on its way.
    const ownConfigDir = `CLAUDE_CONFIG_DIR=${join(runStateDir, 'config')}`;
    setImmediate(() => killProcessesWithEnv((variable) => variable === ownConfigDir));
    await context.configSeed.learn(join(runStateDir, 'config'));
  });
  // Issue #29 modes: `.claude/agents/<mode>.md`, no file writes (path guard and bash validator), and the
  // model `models.implementor` chose for the item's complexity.
  const mode = params.role === 'implementor' ? params.mode : undefined;
  const guards = buildRunGuards({
    role,
    mode,
    root: setup.cwd,
    readOnlyPaths: [...(config.readOnlyPaths ?? []), runStateDir],
    deniedPaths: [
      join(config.repoRoot, WORKTREES_DIR),
      join(config.repoRoot, '.flotilla'),
      config.stateDir,
      config.logging.logsDir,
    ],
    bashValidatorHook: config.bashValidatorHook,
    readOnlyBashValidatorHook: config.readOnlyBashValidatorHook,
  });
  const loaded = await clock.time('agent-definition', () =>
    loadAgentDefinition({
      repoRoot: config.repoRoot,
      role,
      // A repository `flotilla init` set up before the modes existed has no file for them: the built-in one.
      ...(mode !== undefined && { fileName: mode, builtIn: buildModeAgentFile(mode) }),
      contextPaths: config.contextPaths,
      modelOverride: (params.role === 'implementor' ? params.model : undefined) ?? config.models?.[role],
    }),
  );
  await setup.makeRunDir();
  const agentEnv = buildAgentEnv({
    baseEnv: config.baseEnv ?? process.env,
    runStateDir,
    isRoot: context.isRoot,
    passThrough: config.passThroughEnv,
    ...(config.passEnv !== undefined && { passEnv: config.passEnv }),
    extra: { ...config.extraEnv, ...buildPortEnv(worktree?.ports) },
    ...(params.account !== undefined && { account: context.accountEnvOf(params.account) }),
  });
  const executablePath = context.claudeExecutable();
  if (config.sandbox?.mode === 'on') {
    const sandbox = config.sandbox;
    try {
      if (executablePath === null) throw new Error('the claude executable was not found');
      sandboxed = await clock.time('sandbox', () =>
        sandbox.wrap(
          buildAgentSandboxRequest({
            repoRoot: config.repoRoot,
            worktree: worktree?.path ?? null,
            // A read-only mode's worktree is bound read-only: the OS refuses what the guards might miss.
            readOnlyWorktree: mode !== undefined,
            runStateDir,
            env: agentEnv,
            network: [agentEnv.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com'],
            programs: [executablePath],
            onNetworkRefused: setup.refusals.onNetworkRefused,
          }),
          executablePath,
          [],
        ),
      );
    } catch (error) {
      throw new Error(`the OS sandbox could not start: ${messageOf(error)}`);
    }
  }
  // Only the run's own config dir: one an account or the config points elsewhere (a login) is not ours.
  const configDir = join(runStateDir, 'config');
  if (agentEnv.CLAUDE_CONFIG_DIR === configDir)
    await clock.time('config-seed', () => context.configSeed.plant(configDir));
  // File tools stay in the worktree (planner, reviewer and the read-only modes: read only); see path-guard/.
  const pathGuardHook = toSdkHook(guards.pathGuard, config.logger, 'path guard');
  const bashHook =
    guards.bashValidator === config.bashValidatorHook
      ? context.bashHook
      : toSdkHook(guards.bashValidator, config.logger, 'read-only bash validator');
  return { loaded, agentEnv, executablePath, sandboxed, pathGuardHook, bashHook, mode };
}

export type ProvisionedClaudeRun = Awaited<ReturnType<typeof provisionClaudeRun>>;
