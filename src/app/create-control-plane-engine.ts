import { toRemoteRuntimes } from '../cluster/create-remote-runtime.ts';
import type { ClusterController } from '../cluster/start-cluster-controller.ts';
import type { FlotillaConfig } from '../config/index.ts';
import type { AdoptedRun } from '../engine/adopt-runs.ts';
import type { PromptTemplates } from '../engine/context-assembly/assemble-agent-context.ts';
import { createEngine, type Engine } from '../engine/create-engine.ts';
import type { Clock } from '../engine/engine-config.ts';
import type { ResourceGate } from '../engine/scheduler/resource-gate.ts';
import type { Logger } from '../logging/logger.ts';
import { createSecretRedactor } from '../session-log/redact-secrets.ts';
import type { EngineStatePersistence } from '../storage/index.ts';
import type { WorktreeManager } from '../workspace/worktree-manager-types.ts';
import type { HeldLeadership } from './await-cluster-leadership.ts';
import { buildEngineBudget } from './build-engine-budget.ts';
import type { ControlPlaneProvider } from './create-configured-provider.ts';
import type { RuntimeSet } from './create-runtime-set.ts';
import { type ChangeFeed, withChangeFeed } from './with-change-feed.ts';

/** The parts a control plane's engine is built from, each already started. */
export interface ControlPlaneEngineParts {
  config: FlotillaConfig;
  logger: Logger;
  provider: ControlPlaneProvider;
  persistence: EngineStatePersistence;
  runtimeSet: RuntimeSet;
  worktrees: WorktreeManager;
  promptTemplates: PromptTemplates;
  /** Null: dispatch waits for slots only (`scheduler.resources: "off"`). */
  resources: ResourceGate | null;
  /** The repository's tracked files, for the conflict estimate (EngineConfig.listRepositoryFiles). */
  listRepositoryFiles: () => Promise<readonly string[]>;
  /** Cluster mode: the workers the runs go to, and the lease this control plane leads with. */
  cluster: ClusterController | null;
  held: HeldLeadership | null;
  /** Crash recovery's adopted runs (cluster mode) and their session ids, kept active in the state. */
  recovered: { adopted: AdoptedRun[]; keep: ReadonlySet<string> };
  changeFeed?: ChangeFeed;
  clock?: Clock;
}

/**
 * The control plane's engine, as the config says: the provider (with the change feed, when there is one),
 * the resource gate, the state recovered from the database, limits, budgets, the lease's fence, prompt
 * templates, the repository's memories, and the runtimes (sent to the cluster's workers in cluster mode).
 */
export function createControlPlaneEngine(parts: ControlPlaneEngineParts): Engine {
  const { config, provider, persistence, runtimeSet, worktrees, resources, cluster, held } = parts;
  return createEngine({
    provider: parts.changeFeed === undefined ? provider : withChangeFeed(provider, parts.changeFeed),
    ...(resources !== null && { resources }),
    listRepositoryFiles: parts.listRepositoryFiles,
    logger: parts.logger,
    initialState: persistence.loadInitialState({ keep: parts.recovered.keep }),
    adoptedRuns: parts.recovered.adopted,
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
    autoRefine: config.modes.refine.auto,
    dependencyWaitFor: config.dependencies.waitFor,
    mergeQueue: config.merge.queue,
    budget: buildEngineBudget(config, persistence.ledger),
    ...(held !== null && { fence: held.leadership.fence }),
    ...(parts.clock !== undefined && { clock: parts.clock }),
    questionTimeout: config.questionTimeout,
    promptTemplates: parts.promptTemplates,
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
}
