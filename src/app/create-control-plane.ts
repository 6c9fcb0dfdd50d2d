import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { toRemoteRuntimes } from '../cluster/create-remote-runtime.ts';
import { type ClusterController, startClusterController } from '../cluster/start-cluster-controller.ts';
import type { FlotillaConfig } from '../config/index.ts';
import { resolveFlotillaPaths } from '../config/index.ts';
import { periodKeysOf } from '../engine/budget/budget-calendar.ts';
import { createEngine, type Engine } from '../engine/create-engine.ts';
import type { Clock } from '../engine/engine-config.ts';
import type { Logger } from '../logging/logger.ts';
import { reapLocalScratch } from '../providers/local/git/reap-local-scratch.ts';
import { createSecretRedactor } from '../session-log/redact-secrets.ts';
import { createEngineStatePersistence, type EngineStatePersistence, openDatabase } from '../storage/index.ts';
import { createPortAllocator } from '../workspace/create-port-allocator.ts';
import { createWorktreeManager, isSpareWorktreePath } from '../workspace/create-worktree-manager.ts';
import { acquireRunLock } from './acquire-run-lock.ts';
import { awaitClusterLeadership, type HeldLeadership } from './await-cluster-leadership.ts';
import { buildEngineBudget } from './build-engine-budget.ts';
import { type ControlPlaneProvider, createConfiguredProvider } from './create-configured-provider.ts';
import { createRuntimeSet } from './create-runtime-set.ts';
import { loadPromptTemplates } from './load-prompt-templates.ts';
import { reapOrphanProcesses } from './reap-orphan-processes.ts';
import { reapRunStateDirs } from './reap-run-state-dirs.ts';
import { recoverRuns } from './recover-runs.ts';
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
  const runtimeSet = await createRuntimeSet({
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
  });
  // Cluster mode (issue #33): the runs go to the workers over PostgreSQL; absent, all runs here.
  let cluster: ClusterController | null = null;
  if (config.cluster !== undefined) {
    try {
      cluster = await startClusterController({
        settings: config.cluster,
        env: process.env,
        repoRoot,
        defaultBranch: config.defaultBranch,
        fleetConcurrency: config.scheduler.maxConcurrentAgents,
        logger,
      });
    } catch (error) {
      await runtimeSet.close();
      throw error;
    }
  }

  const db = openDatabase(paths.dbPath);
  const persistence = createEngineStatePersistence(db, {
    periodKeysOf: (at) => periodKeysOf(at, config.budgets.timeZone),
  });
  // Cluster mode: runs the previous leader left on the workers are adopted, or cancelled there.
  const recovered = await recoverRuns(
    persistence,
    cluster === null || held === null ? null : { controller: cluster, held },
    logger,
  );
  const interruptedRuns = recovered.interrupted.length;
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
    await cluster?.close();
    await runtimeSet.close();
    throw error;
  }

  // Dispatch waits while the machine cannot hold one more agent (issue #30 §3); "off": slots only.
  const resources =
    config.scheduler.resources === 'off'
      ? null
      : startMachineResourceGate(paths.stateDir, config.scheduler.resources);
  const engine = createEngine({
    provider: options.changeFeed === undefined ? provider : withChangeFeed(provider, options.changeFeed),
    ...(resources !== null && { resources: resources.gate }),
    logger,
    initialState: persistence.loadInitialState({ keep: recovered.keep }),
    adoptedRuns: recovered.adopted,
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
    ...(held !== null && { fence: held.leadership.fence }),
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
      const local = runtimeSet.createAdapters(worktrees);
      // Cluster mode (src/cluster/): every run goes to the workers through the durable queue.
      return cluster === null ? local : toRemoteRuntimes(local, cluster.remoteDeps);
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
    recovered: { interruptedRuns, adoptedRuns: recovered.adopted.length, reapedWorktrees, reapedProcesses },
    sandboxMode: runtimeSet.sandboxMode,
    leaderToken: held?.token ?? null,
    checksPending: () =>
      Object.values(engine.getState().revisions).some((revision) => revision.pipeline?.status === 'pending'),
    close() {
      closing ??= (async () => {
        await engine.stop();
        await cluster?.close();
        resources?.stop();
        // Removals still queued, and the spare: nothing of this run's is left under .worktrees/.
        await worktrees.settle();
        await runtimeSet.close();
        await provider.close();
        db.close();
      })();
      return closing;
    },
  };
}
