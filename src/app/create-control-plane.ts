import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentRuntimeKind, CliRuntimeSettings, FlotillaConfig } from '../config/index.ts';
import { resolveFlotillaPaths } from '../config/index.ts';
import { AGENT_ROLES, type AgentRole, SCRIPTED_RUNTIME } from '../domain/index.ts';
import { periodKeysOf } from '../engine/budget/budget-calendar.ts';
import { createEngine, type Engine } from '../engine/create-engine.ts';
import type { Clock } from '../engine/engine-config.ts';
import type { RuntimeAdapter } from '../engine/runtime-contract/index.ts';
import { buildBashValidatorRules, createBashValidatorHook } from '../guards/bash-validator/index.ts';
import type { Logger } from '../logging/logger.ts';
import { createModelServer } from '../model-server/create-model-server.ts';
import { reapLocalScratch } from '../providers/local/git/reap-local-scratch.ts';
import { findClaudeModelPrice } from '../runtimes/claude/claude-prices.ts';
import { createClaudeAdapter } from '../runtimes/claude/create-claude-adapter.ts';
import { createCliRuntime } from '../runtimes/cli/create-cli-runtime.ts';
import { checkCodexAvailability } from '../runtimes/codex/check-codex-availability.ts';
import { createCodexRuntime } from '../runtimes/codex/create-codex-runtime.ts';
import { checkSandboxAvailability } from '../sandbox/check-sandbox-availability.ts';
import { createSandbox } from '../sandbox/create-sandbox.ts';
import {
  SANDBOX_OFF_NOTICE,
  SANDBOX_UNAVAILABLE,
  SANDBOX_UNAVAILABLE_MACOS,
} from '../sandbox/sandbox-types.ts';
import { createEngineStatePersistence, type EngineStatePersistence, openDatabase } from '../storage/index.ts';
import { createPortAllocator } from '../workspace/create-port-allocator.ts';
import { createWorktreeManager, isSpareWorktreePath } from '../workspace/create-worktree-manager.ts';
import { acquireRunLock } from './acquire-run-lock.ts';
import { buildEngineBudget } from './build-engine-budget.ts';
import { buildRuntimeChoices } from './build-runtime-choices.ts';
import { type ControlPlaneProvider, createConfiguredProvider } from './create-configured-provider.ts';
import { findUnavailableCliRoles } from './find-unavailable-cli-roles.ts';
import { loadConfiguredScenario } from './load-configured-scenario.ts';
import { reapOrphanProcesses } from './reap-orphan-processes.ts';
import { reapRunStateDirs } from './reap-run-state-dirs.ts';

/** The variable holding codex's dummy key for the scripted model server (never passed to its commands). */
const SCRIPTED_CODEX_KEY = 'FLOTILLA_SCRIPTED_API_KEY';
/**
 * The model scripted codex runs ask for (the server answers as the model asked): one the codex price table
 * knows, so their made-up tokens get a cost like the Claude runtime's scripted runs (marked, never summed).
 */
const SCRIPTED_CODEX_MODEL = 'gpt-5.1-codex-max';

export interface ControlPlaneOptions {
  repoRoot: string;
  config: FlotillaConfig;
  logger: Logger;
  /** Added to every agent's environment. */
  extraEnv?: Readonly<Record<string, string>>;
  /**
   * A scripted model server already running (the demo's): every role runs against it, whatever
   * `runtimes` says, and its runs are recorded as `scripted` (made-up costs).
   */
  scriptedModelServerUrl?: string;
  /**
   * Which runtime the roles run on against `scriptedModelServerUrl`: `claude` (default; its Messages
   * endpoint) or `codex` (the real codex binary on its Responses endpoint, with a dummy key).
   */
  scriptedRuntime?: 'claude' | 'codex';
  /**
   * The CLI roles are played by a scripted stand-in (the demo agent CLI): their runs are recorded as
   * `scripted`, so the usage it reports is marked made up and kept out of spend, like the model server's.
   */
  scriptedCli?: boolean;
  /** The engine's clock (tests: a day rollover without waiting); default the system clock. */
  clock?: Clock;
  /** Where the GitHub provider reads its token. Default `process.env` (the demo passes its fake's token). */
  providerEnv?: Readonly<Record<string, string | undefined>>;
}

export interface ControlPlane {
  engine: Engine;
  /** The configured provider (`local` or `github`). */
  provider: ControlPlaneProvider;
  persistence: EngineStatePersistence;
  /** What crash recovery found at start: runs a killed process left open, worktrees it left behind. */
  recovered: { interruptedRuns: number; reapedWorktrees: string[]; reapedProcesses: number };
  /** Whether agents run in the OS sandbox ('off': the user opted out; the dashboard header says so). */
  sandboxMode: 'on' | 'off';
  /** Whether checks are running or pending for any open revision. */
  checksPending(): boolean;
  /**
   * Stops the engine (runs cancelled, worktrees removed), cancels checks in flight, closes the provider and
   * the database, and releases the repository's run lock.
   */
  close(): Promise<void>;
}

/** Flotilla's package root (from `src/app/` or `dist/app/`). */
const FLOTILLA_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Everything `flotilla run` (and the demo) runs: the local provider on `.flotilla/flotilla.db`, durable run
 * history and planned spec SHAs, the Claude adapter for each role, and the engine — after crash recovery
 * (runs left `running` by a killed process are recorded as failed; their worktrees are reaped). One control
 * plane per repository: a second one refuses to start (RunLockError) rather than "recover" the first.
 */
export async function createControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const paths = resolveFlotillaPaths(options.repoRoot);
  const lock = acquireRunLock(paths.stateDir);
  try {
    const controlPlane = await startControlPlane(options, paths);
    return {
      ...controlPlane,
      close: async () => {
        try {
          await controlPlane.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function startControlPlane(
  options: ControlPlaneOptions,
  paths: ReturnType<typeof resolveFlotillaPaths>,
): Promise<ControlPlane> {
  const { repoRoot, config, logger } = options;
  mkdirSync(paths.logsDir, { recursive: true });
  // Roles whose runtime is `scripted` run the same Claude adapter against a scripted model server.
  const configured = await loadConfiguredScenario(repoRoot, config);
  if (configured.kind === 'invalid') throw new Error(configured.errors.join('\n'));
  const scriptedServer = configured.kind === 'ok' ? await createModelServer(configured.scenario) : null;

  // Every agent runs in the OS sandbox: without it nothing starts, unless the user turned it off.
  const sandbox = createSandbox(
    // Flotilla's own install stays readable (its agents' binaries run from it; it holds no secret), also when
    // it lies under a home directory the sandbox hides.
    { ...config.sandbox, allowRead: [...config.sandbox.allowRead, FLOTILLA_ROOT] },
    {
      onNetworkRefused: (target) => logger.warn('the sandbox refused a connection', { target }),
    },
  );
  if (config.sandbox.mode === 'on') {
    const probe = checkSandboxAvailability();
    if (!probe.available) {
      await scriptedServer?.close();
      const headline = process.platform === 'darwin' ? SANDBOX_UNAVAILABLE_MACOS : SANDBOX_UNAVAILABLE;
      throw new Error(`${headline}: ${probe.problems.join('; ')}`);
    }
  } else {
    logger.warn(SANDBOX_OFF_NOTICE);
  }

  // Refused clearly here rather than failing each codex run mid-way (no binary, no key).
  const codexRoles =
    options.scriptedModelServerUrl === undefined
      ? AGENT_ROLES.filter((role) => config.runtimes[role] === 'codex')
      : [];
  if (codexRoles.length > 0) {
    const availability = checkCodexAvailability({ env: { ...process.env, ...options.extraEnv } });
    if (!availability.available) {
      await scriptedServer?.close();
      throw new Error(
        `runtime 'codex' (${codexRoles.join(', ')}) cannot run: ${availability.problems.join('; ')}`,
      );
    }
  }

  // The same preflight each CLI runtime answers at dispatch (check-cli-availability.ts), once at start.
  const cliProblems =
    options.scriptedModelServerUrl === undefined
      ? findUnavailableCliRoles(config, { ...process.env, ...options.extraEnv }, repoRoot)
      : [];
  if (cliProblems.length > 0) {
    await scriptedServer?.close();
    throw new Error(cliProblems.join('\n'));
  }

  const db = openDatabase(paths.dbPath);
  const persistence = createEngineStatePersistence(db, {
    periodKeysOf: (at) => periodKeysOf(at, config.budgets.timeZone),
  });
  const interruptedRuns = persistence.recoverInterruptedRuns().length;
  // Agents and checks a killed Flotilla left running would keep working in worktrees about to be removed.
  const reapedProcesses = reapOrphanProcesses(paths).length;
  // Sessions waiting for a human's answers keep their worktree and state: they resume once answered.
  const waiting = persistence.listWaitingSessions().map((entry) => entry.session);
  const reapedRunStateDirs = await reapRunStateDirs(
    paths,
    waiting.flatMap((session) => (session.stateDir === null ? [] : [session.stateDir])),
  );
  if (reapedRunStateDirs.length > 0)
    logger.info('removed the state of runs a killed flotilla left behind', { dirs: reapedRunStateDirs });
  // One worktree manager for every runtime: git's worktree operations on a repository are serialised, and
  // the spare it prepares ahead serves whichever runtime starts next. Settled (spare removed) on close.
  const worktrees = createWorktreeManager({
    repoRoot,
    defaultBranch: config.defaultBranch,
    setupCommand: config.worktree.setupCommand,
    logger,
    prepareAhead: config.worktree.prepareAhead,
    removeBehind: config.worktree.prepareAhead,
    copy: config.worktree.copy,
    teardownCommand: config.worktree.teardownCommand,
    // Recorded under .flotilla/ports/, so a restart never hands out a port a kept worktree still has.
    ports: createPortAllocator({ dir: join(paths.stateDir, 'ports'), count: config.worktree.ports }),
  });
  // Under the run lock, so none of these belongs to a control plane still running.
  const reapedAgentWorktrees = await worktrees.reapStaleWorktrees({
    keep: waiting.flatMap((session) => (session.worktree === null ? [] : [session.worktree.path])),
  });
  const reapedScratch = await reapLocalScratch({ repoRoot, scratchDir: paths.tmpDir, logger });
  // A spare a killed process prepared ahead was no run's: not reported as a leftover.
  const reapedWorktrees = [
    ...reapedAgentWorktrees.filter((path) => !isSpareWorktreePath(path)),
    ...reapedScratch.worktrees,
  ];

  let provider: ControlPlaneProvider;
  try {
    provider = createConfiguredProvider({
      repoRoot,
      config,
      paths,
      db,
      env: options.providerEnv ?? process.env,
      logger,
    });
  } catch (error) {
    // No token, a bad config: nothing started yet but the database and the scenario's server.
    db.close();
    await scriptedServer?.close();
    throw error;
  }

  const createAdapter = (
    extraEnv: Readonly<Record<string, string>> | undefined,
    runtime: AgentRuntimeKind,
  ): RuntimeAdapter =>
    createClaudeAdapter({
      repoRoot,
      defaultBranch: config.defaultBranch,
      contextPaths: config.contextPaths,
      bashValidatorHook: createBashValidatorHook(buildBashValidatorRules(config.bashValidator)),
      logger,
      setupCommand: config.worktree.setupCommand,
      worktrees,
      stateDir: join(paths.stateDir, 'claude'),
      models: Object.fromEntries(
        Object.entries(config.models).filter((entry): entry is [AgentRole, string] => entry[1] !== undefined),
      ),
      maxAgentDuration: config.maxAgentDuration,
      logging: { agentSessions: config.logging.agentSessions, logsDir: paths.sessionsDir },
      extraEnv,
      readOnlyPaths: config.pathGuard.readOnlyPaths.map((path) => resolve(repoRoot, path)),
      runtime,
      accounts: Object.fromEntries(
        config.accounts.filter((entry) => entry.runtime === runtime).map((entry) => [entry.name, entry.env]),
      ),
      validation: {
        commands: config.validation.commands,
        maxRounds: config.validation.maxRounds,
        timeoutMs: config.validation.timeout * 1000,
      },
      sandbox,
      passEnv: config.sandbox.passEnv,
    });

  /**
   * The Codex runtime for the roles configured `codex` (checked to be available before anything opened),
   * or, with `scripted`, for every role against the scripted model server's Responses endpoint.
   */
  const createCodex = (scripted?: { url: string }): RuntimeAdapter =>
    createCodexRuntime({
      ...(scripted !== undefined && {
        model: SCRIPTED_CODEX_MODEL,
        provider: { id: 'flotilla-scripted', baseUrl: `${scripted.url}/v1`, envKey: SCRIPTED_CODEX_KEY },
        // A dummy key for the local server: no OpenAI account, nothing leaves 127.0.0.1.
        baseEnv: { ...process.env, [SCRIPTED_CODEX_KEY]: 'scripted' },
        runtime: 'scripted',
      }),
      repoRoot,
      defaultBranch: config.defaultBranch,
      contextPaths: config.contextPaths,
      logger,
      setupCommand: config.worktree.setupCommand,
      worktrees,
      stateDir: join(paths.stateDir, 'codex'),
      models: Object.fromEntries(
        Object.entries(config.models).filter((entry): entry is [AgentRole, string] => entry[1] !== undefined),
      ),
      maxAgentDuration: config.maxAgentDuration,
      logging: { agentSessions: config.logging.agentSessions, logsDir: paths.sessionsDir },
      ...(options.extraEnv !== undefined && { extraEnv: options.extraEnv }),
      validation: {
        commands: config.validation.commands,
        maxRounds: config.validation.maxRounds,
        timeoutMs: config.validation.timeout * 1000,
      },
      sandbox,
      passEnv: config.sandbox.passEnv,
    });

  const engine = createEngine({
    provider,
    logger,
    initialState: persistence.loadInitialState(),
    accounts: config.accounts.map(({ name, runtime }) => ({ name, runtime })),
    shutdownTimeout: config.shutdownTimeout,
    pollIntervals: config.pollIntervals,
    scheduler: config.scheduler,
    maxReviewRounds: config.maxReviewRounds,
    maxCheckRounds: config.maxCheckRounds,
    budget: buildEngineBudget(config, persistence.ledger),
    ...(options.clock !== undefined && { clock: options.clock }),
    questionTimeout: config.questionTimeout,
    createRuntimeAdapters: () => {
      const claude = createAdapter(options.extraEnv, 'claude');
      const scriptedRuntime = options.scriptedRuntime ?? config.scriptedRuntime;
      if (options.scriptedModelServerUrl !== undefined && scriptedRuntime === 'codex') {
        const codex = createCodex({ url: options.scriptedModelServerUrl });
        return { planner: codex, implementor: codex, reviewer: codex };
      }
      const scriptedUrl = options.scriptedModelServerUrl ?? scriptedServer?.url;
      const scripted = !scriptedUrl
        ? claude
        : scriptedRuntime === 'codex'
          ? createCodex({ url: scriptedUrl })
          : createAdapter(
              { ...options.extraEnv, ANTHROPIC_BASE_URL: scriptedUrl, ANTHROPIC_API_KEY: 'scripted' },
              'scripted',
            );
      // The demo's scripted server answers every role; otherwise `codex` roles run the Codex runtime.
      const codex = codexRoles.length > 0 ? createCodex() : null;
      const buildCli = (chosen: CliRuntimeSettings, where: string): RuntimeAdapter => {
        const build = () =>
          createCliRuntime({
            repoRoot,
            defaultBranch: config.defaultBranch,
            logger,
            // Its own runs directory; orphan reaping after a crash looks there too (reap-orphan-processes.ts).
            stateDir: join(paths.stateDir, 'cli'),
            preset: chosen.preset,
            ...(chosen.custom !== undefined && { customPreset: chosen.custom }),
            ...(chosen.program !== undefined && { program: chosen.program }),
            protectedPaths: chosen.protectedPaths,
            worktrees,
            maxAgentDuration: config.maxAgentDuration,
            logging: { agentSessions: config.logging.agentSessions, logsDir: paths.sessionsDir },
            ...(options.extraEnv !== undefined && { extraEnv: options.extraEnv }),
            // The live cost of the `claude` CLI's requests (stream-json), for the budgets.
            findModelPrice: findClaudeModelPrice,
            sandbox,
            passEnv: config.sandbox.passEnv,
            ...(options.scriptedCli === true && { runtime: SCRIPTED_RUNTIME }),
          });
        try {
          return build();
        } catch (error) {
          // A bad `custom` preset: say where it is configured.
          throw new Error(
            `flotilla.config.json: ${where}: ${error instanceof Error ? error.message : error}`,
          );
        }
      };
      const pick = (role: AgentRole): RuntimeAdapter => {
        const chosen = config.runtimes[role];
        if (chosen === 'scripted' || options.scriptedModelServerUrl !== undefined) return scripted;
        if (chosen === 'codex' && codex !== null) return codex;
        if (typeof chosen === 'string') return claude;
        return buildCli(chosen, `runtimes.${role}`);
      };
      const roles = {
        planner: pick('planner'),
        implementor: pick('implementor'),
        reviewer: pick('reviewer'),
      };
      // The demo's scripted server answers every role: no label chooses another runtime there.
      if (options.scriptedModelServerUrl !== undefined) return roles;
      // What a work item's `runtime:<name>` label may choose (build-runtime-choices.ts).
      const choices = buildRuntimeChoices(config, {
        named: (kind) =>
          kind === 'claude'
            ? claude
            : kind === 'codex'
              ? (codex ?? createCodex())
              : scriptedUrl
                ? scripted
                : null,
        cli: (settings) => buildCli(settings, `runtime:cli:${settings.preset}`),
      });
      return { ...roles, choices };
    },
  });
  engine.onEvent((event, state) => persistence.record(event, state));
  // Checks a killed process left pending are run again.
  void provider.runPendingChecks();

  let closing: Promise<void> | null = null;
  return {
    engine,
    provider,
    persistence,
    recovered: { interruptedRuns, reapedWorktrees, reapedProcesses },
    sandboxMode: config.sandbox.mode,
    checksPending: () =>
      Object.values(engine.getState().revisions).some((revision) => revision.pipeline?.status === 'pending'),
    close() {
      closing ??= (async () => {
        await engine.stop();
        // Removals still queued, and the spare: nothing of this run's is left under .worktrees/.
        await worktrees.settle();
        await scriptedServer?.close();
        await provider.close();
        db.close();
      })();
      return closing;
    },
  };
}
