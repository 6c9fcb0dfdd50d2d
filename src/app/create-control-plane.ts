import { mkdirSync } from 'node:fs';
import { type ClusterController, startClusterController } from '../cluster/start-cluster-controller.ts';
import type { FlotillaConfig } from '../config/index.ts';
import { resolveFlotillaPaths } from '../config/index.ts';
import { periodKeysOf } from '../engine/budget/budget-calendar.ts';
import type { Engine } from '../engine/create-engine.ts';
import type { Clock } from '../engine/engine-config.ts';
import type { Logger } from '../logging/logger.ts';
import {
  createEngineStatePersistence,
  type EngineStatePersistence,
  openDatabase,
  type SqlConnection,
} from '../storage/index.ts';
import { listTrackedFiles } from '../workspace/list-tracked-files.ts';
import { acquireRunLock } from './acquire-run-lock.ts';
import { awaitClusterLeadership, type HeldLeadership } from './await-cluster-leadership.ts';
import { type ControlPlaneProvider, createConfiguredProvider } from './create-configured-provider.ts';
import { createControlPlaneEngine } from './create-control-plane-engine.ts';
import { createRuntimeSet, type RuntimeSet, type RuntimeSetOptions } from './create-runtime-set.ts';
import { loadPromptTemplates } from './load-prompt-templates.ts';
import { openClusterState } from './open-cluster-state.ts';
import { publishAfterMerges } from './publish-after-merges.ts';
import { recoverAfterCrash } from './recover-after-crash.ts';
import { startMachineResourceGate } from './resources/start-machine-resource-gate.ts';
import type { ChangeFeed } from './with-change-feed.ts';

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
  /** Cluster mode: another controller leads, this one waits as a standby (await-cluster-leadership.ts). */
  onStandby?: (leader: { holder: string; token: number }) => void;
  /**
   * Cluster mode: this control plane lost the controller lease. Its writes are already refused (fenced);
   * the caller stops the process at once, without the graceful stop's cancels.
   */
  onDeposed?: (token: number) => void;
}

export interface ControlPlane {
  engine: Engine;
  /** The configured provider (`local` or `github`). */
  provider: ControlPlaneProvider;
  persistence: EngineStatePersistence;
  /** What crash recovery found at start: runs a killed process left open, worktrees it left behind. */
  recovered: {
    interruptedRuns: number;
    /** Cluster mode: runs the previous leader left on the workers that this one waits on (recover-runs.ts). */
    adoptedRuns: number;
    reapedWorktrees: string[];
    reapedProcesses: number;
  };
  /** Whether agents run in the OS sandbox ('off': the user opted out; the dashboard header says so). */
  sandboxMode: 'on' | 'off';
  /** Cluster mode: the controller lease's fencing token this control plane leads with; null on one machine. */
  leaderToken: number | null;
  /** Whether checks are running or pending for any open revision. */
  checksPending(): boolean;
  /**
   * Stops the engine (runs cancelled, worktrees removed), cancels checks in flight, closes the provider and
   * the database, and releases the repository's run lock.
   */
  close(): Promise<void>;
}

/**
 * Everything `flotilla run` (and the demo) runs: the local provider on `.flotilla/flotilla.db`, durable run
 * history and planned spec SHAs, the Claude adapter for each role, and the engine — after crash recovery
 * (runs left `running` by a killed process are recorded as failed; their worktrees are reaped). One control
 * plane per repository: a second one refuses to start (RunLockError) rather than "recover" the first.
 */
export async function createControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const paths = resolveFlotillaPaths(options.repoRoot);
  // Cluster mode: nothing starts before this process leads (a standby waits here); the lease outranks the
  // run lock, whose holder on this machine could only be a deposed controller.
  const held = await leadIfClustered(options);
  let lock: ReturnType<typeof acquireRunLock>;
  try {
    lock = acquireRunLock(paths.stateDir, { takeOver: held !== null });
  } catch (error) {
    await held?.leadership.stop();
    throw error;
  }
  try {
    const controlPlane = await startControlPlane(options, paths, held);
    return {
      ...controlPlane,
      close: async () => {
        try {
          await controlPlane.close();
        } finally {
          lock.release();
          await held?.leadership.stop();
        }
      },
    };
  } catch (error) {
    lock.release();
    await held?.leadership.stop();
    throw error;
  }
}

async function leadIfClustered(options: ControlPlaneOptions): Promise<HeldLeadership | null> {
  const { config, logger } = options;
  if (config.cluster === undefined) return null;
  const held = await awaitClusterLeadership({
    settings: config.cluster,
    env: process.env,
    logger,
    ...(options.onStandby !== undefined && { onStandby: options.onStandby }),
  });
  held.leadership.onDeposed((token) => {
    logger.error('this controller lost its lease: no further writes', { token });
    options.onDeposed?.(token);
  });
  return held;
}

async function startControlPlane(
  options: ControlPlaneOptions,
  paths: ReturnType<typeof resolveFlotillaPaths>,
  held: HeldLeadership | null,
): Promise<ControlPlane> {
  const { repoRoot, config, logger } = options;
  mkdirSync(paths.logsDir, { recursive: true });
  // A bad prompt template stops the start here, naming its file and line, not a run mid-way.
  const prompts = await loadPromptTemplates(repoRoot);
  if (!prompts.ok)
    throw new Error(`invalid prompt templates (docs/prompt-templates.md):\n${prompts.errors.join('\n')}`);
  // The scenario's server, the sandbox, each runtime's preflight: refused here, not in each run mid-way.
  const runtimeSet = await createRuntimeSet(runtimeSetOptionsOf(options, paths));
  const cluster = await startClusterIfConfigured(options, runtimeSet);
  const db = openDatabase(paths.dbPath);
  // Cluster mode: the engine state (runs, ledger, memories, proposals …) in PostgreSQL, for any controller;
  // every statement fenced by the lease (a refused one deposes this process: it stops, never drops events).
  const sharedState = openClusterState(config, process.env, held);
  const persistence = createEngineStatePersistence(db, {
    periodKeysOf: (at) => periodKeysOf(at, config.budgets.timeZone),
    ...(sharedState !== undefined && { sharedState }),
  });
  const recovery = await recoverAfterCrash({ repoRoot, config, logger, paths, persistence, cluster, held });
  const { recovered, worktrees } = recovery;
  const provider = await openProvider(options, paths, { db, sharedState }, async () => {
    // No token, a bad config: nothing started yet but the databases and the scenario's server.
    db.close();
    sharedState?.close();
    await cluster?.close();
    await runtimeSet.close();
  });
  if (cluster !== null) publishAfterMerges(provider, cluster.remoteDeps.git, logger);
  // Dispatch waits while the machine cannot hold one more agent (issue #30 §3); "off": slots only. A cluster's
  // agents run on the workers (each bounded by its --slots), so the controller's own machine never gates them.
  const resources =
    config.scheduler.resources === 'off' || cluster !== null
      ? null
      : startMachineResourceGate(paths.stateDir, config.scheduler.resources);
  const engine = createControlPlaneEngine({
    config,
    logger,
    provider,
    persistence,
    runtimeSet,
    worktrees,
    promptTemplates: prompts.templates,
    resources: resources?.gate ?? null,
    listRepositoryFiles: () => listTrackedFiles(repoRoot),
    cluster,
    held,
    recovered: recovery,
    ...(options.changeFeed !== undefined && { changeFeed: options.changeFeed }),
    ...(options.clock !== undefined && { clock: options.clock }),
  });
  engine.onEvent((event, state) => persistence.record(event, state));
  // Checks a killed process left pending are run again.
  void provider.runPendingChecks();
  const close = async () => {
    await engine.stop();
    await cluster?.close();
    resources?.stop();
    // Removals still queued, and the spare: nothing of this run's is left under .worktrees/.
    await worktrees.settle();
    await runtimeSet.close();
    await provider.close();
    db.close();
    sharedState?.close();
  };
  return {
    engine,
    provider,
    persistence,
    recovered,
    sandboxMode: runtimeSet.sandboxMode,
    leaderToken: held?.token ?? null,
    checksPending: () =>
      Object.values(engine.getState().revisions).some((revision) => revision.pipeline?.status === 'pending'),
    close: once(close),
  };
}

/** The configured provider; `onFailure` closes what had started before it when it cannot open. */
async function openProvider(
  options: ControlPlaneOptions,
  paths: ReturnType<typeof resolveFlotillaPaths>,
  databases: { db: ReturnType<typeof openDatabase>; sharedState: SqlConnection | undefined },
  onFailure: () => Promise<void>,
): Promise<ControlPlaneProvider> {
  const { db, sharedState } = databases;
  try {
    return await createConfiguredProvider({
      repoRoot: options.repoRoot,
      config: options.config,
      paths,
      db,
      // Cluster mode: the local tracker in the cluster's PostgreSQL, on the engine state's connection.
      ...(sharedState !== undefined && { sharedState }),
      env: options.providerEnv ?? process.env,
      logger: options.logger,
    });
  } catch (error) {
    await onFailure();
    throw error;
  }
}

/** `close` run once: later calls get the first call's promise. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => {
    closing ??= close();
    return closing;
  };
}

/** What the runtimes are built from: the config, and the demo's scripted server and runtime when given. */
function runtimeSetOptionsOf(
  options: ControlPlaneOptions,
  paths: ReturnType<typeof resolveFlotillaPaths>,
): RuntimeSetOptions {
  const { repoRoot, config, logger } = options;
  return {
    repoRoot,
    config,
    logger,
    paths,
    ...(options.extraEnv !== undefined && { extraEnv: options.extraEnv }),
    ...(options.scriptedModelServerUrl !== undefined && {
      scriptedModelServerUrl: options.scriptedModelServerUrl,
    }),
    ...(options.scriptedRuntime !== undefined && { scriptedRuntime: options.scriptedRuntime }),
    ...(options.scriptedCli !== undefined && { scriptedCli: options.scriptedCli }),
    // Cluster mode: every run goes to the workers (startClusterIfConfigured), which check what agents need.
    ...(config.cluster !== undefined && { agentsRunElsewhere: true }),
  };
}

/**
 * Cluster mode (issue #33): the runs go to the workers over PostgreSQL; null without `cluster` (all runs
 * here). The runtimes are closed again when it cannot start.
 */
async function startClusterIfConfigured(
  options: ControlPlaneOptions,
  runtimeSet: RuntimeSet,
): Promise<ClusterController | null> {
  const { config } = options;
  if (config.cluster === undefined) return null;
  try {
    return await startClusterController({
      settings: config.cluster,
      env: process.env,
      repoRoot: options.repoRoot,
      defaultBranch: config.defaultBranch,
      fleetConcurrency: config.scheduler.maxConcurrentAgents,
      logger: options.logger,
    });
  } catch (error) {
    await runtimeSet.close();
    throw error;
  }
}
