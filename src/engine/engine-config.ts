import type {
  AccountRef,
  ApprovalMode,
  DependencyWaitFor,
  EngineCommand,
  EngineEvent,
} from '../domain/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { Provider } from '../providers/types.ts';
import type { AdoptedRun } from './adopt-runs.ts';
import type { BudgetConfig } from './budget/budget-config.ts';
import type { RunModeConfig } from './command-executor/build-run-mode-options.ts';
import type { MemorySource, PromptTemplates } from './context-assembly/assemble-agent-context.ts';
import type { HandlerConfig, NamedHandler } from './handlers/handler.ts';
import type { RuntimeAdapters } from './runtime-contract/runtime-contract.ts';
import type { ResourceGate } from './scheduler/resource-gate.ts';
import type { EngineState } from './state-store/engine-state.ts';

export type PolicyDecision = { allowed: true } | { allowed: false; reason: string };

/** Decides whether a command may run; sees the same snapshot as the guards. */
export type Policy = (command: EngineCommand, state: EngineState) => PolicyDecision;

/** Time source, injectable so scheduling is testable without real waiting. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Wraps an external write: runs it only while this process may write, else rejects without running it.
 * Cluster mode (src/cluster/): the controller lease's fence, checked in the database with its token.
 */
export type WriteFence = <T>(write: () => Promise<T>) => Promise<T>;

export interface SchedulerConfig {
  /** Runs (planner included) allowed at once; further dispatches queue by priority, then age. */
  maxConcurrentAgents: number;
  /** Failed runs of one kind for one work item before it is parked as blocked. */
  maxAttempts: number;
  /** Seconds; the n-th retry waits base × 2^(n-1), capped at `retryMaxDelay`. */
  retryBaseDelay: number;
  retryMaxDelay: number;
  /** Seconds without output or activity before a run is cancelled with reason `timeout`. */
  stallTimeout: number;
}

export interface EngineConfig {
  provider: Provider;
  /** One runtime per role. Runtimes get finished prompts and plain data (runtime-contract/), no engine state. */
  createRuntimeAdapters: () => RuntimeAdapters;
  policy?: Policy;
  logger?: Logger;
  /** Seconds stop() waits for cancelled runs to end. */
  shutdownTimeout?: number;
  /** Seconds between polls. */
  pollIntervals?: { workItems?: number; revisions?: number; specs?: number };
  scheduler?: Partial<SchedulerConfig>;
  maxReviewRounds?: number;
  /** Default 2. */
  maxCheckRounds?: number;
  /** Config `approval` (issue #29 §2): `plans: required` makes plans proposals a human decides. Default auto. */
  approval?: { plans?: ApprovalMode; investigations?: ApprovalMode; refinements?: ApprovalMode };
  /** Issue #29: per-mode limits and the implementor's model by complexity (see build-run-mode-options.ts). */
  modes?: RunModeConfig;
  /**
   * Config `modes.refine.auto` (issue #29): items in needs-refinement and `task:refinement` items get a
   * `refine` run once per body version (handlers/handle-auto-refinement.ts). Default false here (the
   * config's default is true).
   */
  autoRefine?: boolean;
  /**
   * Config `dependencies.waitFor` (issue #30): `approved` (default) makes a dependent item ready once its
   * blockers are approved and starts its worktree from their approved revisions; `merged` waits for them
   * to be closed.
   */
  dependencyWaitFor?: DependencyWaitFor;
  /** Config `merge.queue` (issue #30 §5): approved items merge on their own through the merge queue. */
  mergeQueue?: boolean;
  /** Implementor branches are `<branchPrefix><workItemID>`. */
  branchPrefix?: string;
  /** Seconds an item waits for answers to its agent's questions before it goes to needs-refinement (7 days). */
  questionTimeout?: number;
  /** State restored from durable storage (planned SHAs, run history). */
  initialState?: Partial<EngineState>;
  /**
   * Runs a previous process started that still go on elsewhere (cluster mode: on the workers): the engine
   * waits on them from its start instead of dispatching their items again (adopt-runs.ts).
   */
  adoptedRuns?: readonly AdoptedRun[];
  clock?: Clock;
  generateSessionID?: () => string;
  /** Measurement hooks (benchmarks, diagnostics); called after each processed batch. */
  instrumentation?: { batchProcessed(events: readonly EngineEvent[], durationMs: number): void };
  /**
   * Credential profiles per runtime (config `accounts`, names only): each run uses one; a usage limit
   * exhausts it and the next run fails over to another (see scheduler/create-limit-gate.ts).
   */
  accounts?: readonly AccountRef[];
  /**
   * Spend caps and the ledger they are measured against (budget/create-budget-guard.ts); absent: no
   * budgets (no run is refused or stopped for cost).
   */
  budget?: BudgetConfig;
  /**
   * Whether the machine can hold one more agent (scheduler/resource-gate.ts; the app measures memory and
   * load); absent: only `maxConcurrentAgents` limits how many run at once.
   */
  resources?: ResourceGate;
  /**
   * The repository's tracked files, for the conflict estimate of an item whose text names no file (its words
   * are matched against the files' base names, scheduler/estimate-touched-files.ts); absent: no such match.
   */
  listRepositoryFiles?: () => Promise<readonly string[]>;
  /**
   * Per-role prompt templates (`.flotilla/prompts/<role>.md`, docs/prompt-templates.md), parsed and checked
   * by the caller before the engine starts; a role without one gets the built-in prompt.
   */
  promptTemplates?: PromptTemplates;
  /**
   * The repository's memories (issue #28 §2), read for every prompt's "Memories" section (newest first,
   * at most `maxPromptChars`, default 8,000); absent: the section says there are none.
   */
  memories?: MemorySource;
  /** Replaces secrets in what agents record through their tools, before it is stored; default: unchanged. */
  redact?: (text: string) => string;
  /**
   * Every write the command executor performs (tracker and revision writes, merges, agent starts) runs
   * inside it; a refusal fails the command (`commandFailed`) or the run's start. Absent: writes run as they
   * are (one machine).
   */
  fence?: WriteFence;
  /** Replaces the seven standard handlers (extensions and fault-injection tests); default ALL_HANDLERS. */
  handlers?: readonly NamedHandler[];
}

export interface ResolvedEngineConfig {
  shutdownTimeout: number;
  pollIntervals: { workItems: number; revisions: number; specs: number };
  scheduler: SchedulerConfig;
  handlers: HandlerConfig;
  branchPrefix: string;
  questionTimeout: number;
}

export const DEFAULT_SCHEDULER_CONFIG: SchedulerConfig = {
  maxConcurrentAgents: 3,
  maxAttempts: 3,
  retryBaseDelay: 30,
  retryMaxDelay: 900,
  stallTimeout: 900,
};

/** Seconds: 7 days. */
export const DEFAULT_QUESTION_TIMEOUT = 7 * 24 * 60 * 60;

export function resolveEngineConfig(config: EngineConfig): ResolvedEngineConfig {
  const scheduler = { ...DEFAULT_SCHEDULER_CONFIG, ...config.scheduler };
  return {
    shutdownTimeout: config.shutdownTimeout ?? 300,
    pollIntervals: {
      workItems: config.pollIntervals?.workItems ?? 30,
      revisions: config.pollIntervals?.revisions ?? 30,
      specs: config.pollIntervals?.specs ?? 60,
    },
    scheduler,
    handlers: {
      maxAttempts: scheduler.maxAttempts,
      maxReviewRounds: config.maxReviewRounds ?? 3,
      maxCheckRounds: config.maxCheckRounds ?? 2,
      approval: {
        plans: config.approval?.plans ?? 'auto',
        investigations: config.approval?.investigations ?? 'auto',
        refinements: config.approval?.refinements ?? 'auto',
      },
      dependencyWaitFor: config.dependencyWaitFor ?? 'approved',
      mergeQueue: config.mergeQueue ?? false,
      autoRefine: config.autoRefine ?? false,
      mirrorTaskContext: config.provider.taskContextMirror !== undefined,
    },
    branchPrefix: config.branchPrefix ?? 'flotilla/',
    questionTimeout: config.questionTimeout ?? DEFAULT_QUESTION_TIMEOUT,
  };
}
