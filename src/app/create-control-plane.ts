import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FlotillaConfig } from '../config/index.ts';
import { resolveFlotillaPaths } from '../config/index.ts';
import type { AgentRole } from '../domain/index.ts';
import { periodKeysOf } from '../engine/budget/budget-calendar.ts';
import { createEngine, type Engine } from '../engine/create-engine.ts';
import type { Clock } from '../engine/engine-config.ts';
import type { RuntimeAdapter } from '../engine/runtime-contract/index.ts';
import {
  buildBashValidatorRules,
  createBashValidatorHook,
  toReadOnlyBashValidatorRules,
} from '../guards/bash-validator/index.ts';
import type { Logger } from '../logging/logger.ts';
import { createModelServer } from '../model-server/create-model-server.ts';
import { reapLocalScratch } from '../providers/local/git/reap-local-scratch.ts';
import { findRuntime, RUNTIME_REGISTRY, type RuntimeSettings, runtimeNameOf } from '../runtimes/registry.ts';
import type { RuntimeBuildContext, RuntimeDescriptor } from '../runtimes/shared/runtime-descriptor.ts';
import { checkSandboxAvailability } from '../sandbox/check-sandbox-availability.ts';
import { createSandbox } from '../sandbox/create-sandbox.ts';
import {
  SANDBOX_OFF_NOTICE,
  SANDBOX_UNAVAILABLE,
  SANDBOX_UNAVAILABLE_MACOS,
} from '../sandbox/sandbox-types.ts';
import { createSecretRedactor } from '../session-log/redact-secrets.ts';
import { createEngineStatePersistence, type EngineStatePersistence, openDatabase } from '../storage/index.ts';
import { createPortAllocator } from '../workspace/create-port-allocator.ts';
import { createWorktreeManager, isSpareWorktreePath } from '../workspace/create-worktree-manager.ts';
import { acquireRunLock } from './acquire-run-lock.ts';
import { buildEngineBudget } from './build-engine-budget.ts';
import { buildRuntimeChoices } from './build-runtime-choices.ts';
import { type ControlPlaneProvider, createConfiguredProvider } from './create-configured-provider.ts';
import { findUnavailableRuntimes } from './find-unavailable-runtimes.ts';
import { loadConfiguredScenario } from './load-configured-scenario.ts';
import { loadPromptTemplates } from './load-prompt-templates.ts';
import { reapOrphanProcesses } from './reap-orphan-processes.ts';
import { reapRunStateDirs } from './reap-run-state-dirs.ts';
import { startMachineResourceGate } from './resources/start-machine-resource-gate.ts';
import { type ChangeFeed, withChangeFeed } from './with-change-feed.ts';

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
  scriptedRuntime?: string;
  /**
   * The CLI roles are played by a scripted stand-in (the demo agent CLI): their runs are recorded as
   * `scripted`, so the usage it reports is marked made up and kept out of spend, like the model server's.
   */
  scriptedCli?: boolean;
  /** The engine's clock (tests: a day rollover without waiting); default the system clock. */
  clock?: Clock;
  /** Where the GitHub provider reads its token. Default `process.env` (the demo passes its fake's token). */
  providerEnv?: Readonly<Record<string, string | undefined>>;
  /** Changes learnt besides the polls (GitHub webhooks, `run --serve`): polled at once (with-change-feed.ts). */
  changeFeed?: ChangeFeed;
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
  // A bad prompt template stops the start here, naming its file and line, not a run mid-way.
  const prompts = await loadPromptTemplates(repoRoot);
  if (!prompts.ok)
    throw new Error(`invalid prompt templates (docs/prompt-templates.md):\n${prompts.errors.join('\n')}`);
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

  // Each runtime's preflight (its descriptor's `checkAvailability`), refused clearly here rather than failing
  // each run mid-way (no binary, no key). The demo's scripted server answers every role: nothing to check.
  const unavailable =
    options.scriptedModelServerUrl === undefined
      ? findUnavailableRuntimes(config, { ...process.env, ...options.extraEnv }, repoRoot)
      : [];
  if (unavailable.length > 0) {
    await scriptedServer?.close();
    throw new Error(unavailable.join('\n'));
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
    provider = await createConfiguredProvider({
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

  /** What a runtime's `create` is given (src/runtimes/shared/runtime-descriptor.ts). */
  const contextFor = (descriptor: RuntimeDescriptor<RuntimeSettings>): RuntimeBuildContext => ({
    repoRoot,
    defaultBranch: config.defaultBranch,
    contextPaths: config.contextPaths,
    logger,
    setupCommand: config.worktree.setupCommand,
    worktrees,
    // Its own runs directory; orphan reaping after a crash looks there too (reap-orphan-processes.ts).
    stateDir: join(paths.stateDir, descriptor.stateDir ?? descriptor.name),
    models: Object.fromEntries(
      // A per-complexity implementor map is the engine's to apply (build-run-mode-options.ts), per run.
      Object.entries(config.models).filter(
        (entry): entry is [AgentRole, string] => typeof entry[1] === 'string',
      ),
    ),
    maxAgentDuration: config.maxAgentDuration,
    logging: { agentSessions: config.logging.agentSessions, logsDir: paths.sessionsDir },
    ...(options.extraEnv !== undefined && { extraEnv: options.extraEnv }),
    bashValidatorHook: createBashValidatorHook(buildBashValidatorRules(config.bashValidator)),
    readOnlyBashValidatorHook: createBashValidatorHook(
      toReadOnlyBashValidatorRules(buildBashValidatorRules(config.bashValidator)),
    ),
    readOnlyPaths: config.pathGuard.readOnlyPaths.map((path) => resolve(repoRoot, path)),
    accounts: config.accounts,
    validation: {
      commands: config.validation.commands,
      maxRounds: config.validation.maxRounds,
      timeoutMs: config.validation.timeout * 1000,
    },
    sandbox,
    passEnv: config.sandbox.passEnv,
    scriptedStandIn: options.scriptedCli === true,
  });

  // Dispatch waits while the machine cannot hold one more agent (issue #30 §3); "off": slots only.
  const resources =
    config.scheduler.resources === 'off'
      ? null
      : startMachineResourceGate(paths.stateDir, config.scheduler.resources);
  const engine = createEngine({
    provider: options.changeFeed === undefined ? provider : withChangeFeed(provider, options.changeFeed),
    ...(resources !== null && { resources: resources.gate }),
    logger,
    initialState: persistence.loadInitialState(),
    accounts: config.accounts.map(({ name, runtime }) => ({ name, runtime })),
    shutdownTimeout: config.shutdownTimeout,
    pollIntervals: config.pollIntervals,
    scheduler: config.scheduler,
    maxReviewRounds: config.maxReviewRounds,
    maxCheckRounds: config.maxCheckRounds,
    approval: config.approval,
    modes: {
      limits: config.limits,
      maxAgentDuration: config.maxAgentDuration,
      ...(typeof config.models.implementor === 'object' && { implementorModels: config.models.implementor }),
    },
    dependencyWaitFor: config.dependencies.waitFor,
    mergeQueue: config.merge.queue,
    budget: buildEngineBudget(config, persistence.ledger),
    ...(options.clock !== undefined && { clock: options.clock }),
    questionTimeout: config.questionTimeout,
    promptTemplates: prompts.templates,
    // Read for every prompt, so a human's `flotilla memory edit` or `forget` counts from the next run on.
    memories: {
      list: (limit) => persistence.memories.list(limit),
      count: () => persistence.memories.count(),
      maxPromptChars: config.memory.maxPromptChars,
    },
    // Agents' notes are stored and shown to later agents: no secret of this process's environment in them.
    redact: createSecretRedactor(process.env),
    createRuntimeAdapters: () => {
      const descriptorOf = (name: string): RuntimeDescriptor<RuntimeSettings> => {
        const descriptor = findRuntime(name);
        // The config schema accepts only the registry's names.
        if (descriptor === undefined) throw new Error(`flotilla.config.json: no runtime '${name}'`);
        return descriptor;
      };
      // The runtime that plays the scripted roles against a scripted model server (`scriptedRuntime`).
      const player = descriptorOf(options.scriptedRuntime ?? config.scriptedRuntime);
      const scriptedUrl = options.scriptedModelServerUrl ?? scriptedServer?.url;
      const playScripted = (url: string) => {
        if (player.createScripted === undefined)
          throw new Error(`flotilla.config.json: scriptedRuntime: '${player.name}' cannot run scripted`);
        return player.createScripted(contextFor(player), { url });
      };
      // One runtime per name, shared by the roles and labels that name it (created on first use).
      const byName = new Map<string, RuntimeAdapter | null>();
      const named = (name: string): RuntimeAdapter | null => {
        if (!byName.has(name)) {
          const descriptor = descriptorOf(name);
          byName.set(
            name,
            descriptor.scripted !== true
              ? descriptor.create(contextFor(descriptor), name)
              : scriptedUrl === undefined
                ? null
                : playScripted(scriptedUrl),
          );
        }
        return byName.get(name) ?? null;
      };
      const defaultRuntime = (): RuntimeAdapter => named(RUNTIME_REGISTRY[0].name) as RuntimeAdapter;
      // The demo's scripted server answers every role, and no label chooses another runtime there.
      if (options.scriptedModelServerUrl !== undefined) {
        const scripted = playScripted(options.scriptedModelServerUrl);
        return { planner: scripted, implementor: scripted, reviewer: scripted };
      }
      // A runtime configured as an object: its own adapter each time, a bad setting named where it is.
      const build = (settings: RuntimeSettings, where: string): RuntimeAdapter => {
        if (typeof settings === 'string') return named(settings) ?? defaultRuntime();
        const descriptor = descriptorOf(runtimeNameOf(settings));
        try {
          return descriptor.create(contextFor(descriptor), settings);
        } catch (error) {
          throw new Error(
            `flotilla.config.json: ${where}: ${error instanceof Error ? error.message : error}`,
          );
        }
      };
      const pick = (role: AgentRole): RuntimeAdapter => build(config.runtimes[role], `runtimes.${role}`);
      const roles = {
        planner: pick('planner'),
        implementor: pick('implementor'),
        reviewer: pick('reviewer'),
      };
      // What a work item's `runtime:<name>` label may choose (build-runtime-choices.ts).
      const choices = buildRuntimeChoices(config, {
        build: (runtime, settings) =>
          typeof settings === 'string'
            ? named(settings)
            : build(settings, `runtime:${findRuntime(runtime)?.runName?.(settings) ?? runtime}`),
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
        resources?.stop();
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
