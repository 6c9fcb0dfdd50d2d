import type {
  AgentFailureReason,
  AgentRun,
  AgentRunRequestCommand,
  BudgetPause,
  ErrorEntry,
  MergeConflict,
  Proposal,
  Revision,
  RevisionFeedback,
  RuntimeParking,
  Spec,
  TaskContextEntry,
  WaitingSession,
  WorkItem,
} from '../../domain/index.ts';

/** Consecutive failures of one kind of run, for retry backoff and the attempt cap. */
export interface FailureRecord {
  attempts: number;
  lastReason: AgentFailureReason;
  lastError: string;
  lastFailedAt: number;
  lastSessionID: string;
}

/** A run request waiting for a slot or for its retry backoff to pass. */
export interface QueuedDispatch {
  key: string;
  command: AgentRunRequestCommand;
  reason: 'capacity' | 'backoff' | 'parked' | 'budget' | 'resources' | 'conflict';
  /** What it waits for, in words (`resources`). */
  detail?: string;
  notBefore: number | null;
  priority: number;
  queuedAt: number;
}

export const MAX_ERROR_ENTRIES = 50;

/** The single source of truth. Plain data only: every change goes through applyStateUpdate. */
export interface EngineState {
  workItems: Record<string, WorkItem>;
  revisions: Record<string, Revision>;
  specs: Record<string, Spec>;
  agentRuns: Record<string, AgentRun>;
  errors: ErrorEntry[];
  /** Spec path → blob SHA last planned successfully. */
  lastPlannedSHAs: Record<string, string>;
  dispatchQueue: QueuedDispatch[];
  /** Keyed by `failureKey(role, workItemID)`; cleared by a success or a human's intervention. */
  failures: Record<string, FailureRecord>;
  /** Work item id → number of needs-changes verdicts since it was last approved or reset by a human. */
  reviewRounds: Record<string, number>;
  /** Work item id → failed checks seen on its revision since it was last approved or reset by a human. */
  checkRounds: Record<string, number>;
  /**
   * Runtimes and accounts a provider limit parked, by `parkingKey(runtime, account)`; an entry whose `until`
   * has passed no longer holds anything back. Restored from storage at start; a completed run lifts its own.
   */
  parkings: Record<string, RuntimeParking>;
  /**
   * Account name (config `accounts`; names are unique across runtimes) → when a run on it was last
   * requested: which account a runtime is on and which is least recently used. Kept apart from `agentRuns`
   * (pruned, and empty after a restart); restored from the run history at start.
   */
  accountsLastUsed: Record<string, number>;
  /** Set while dispatch is paused because the day's or month's budget is spent. */
  budgetPause: BudgetPause | null;
  /** Work item id → the session that asked a human questions and waits for answers (kept across restarts). */
  waitingForInput: Record<string, WaitingSession>;
  /**
   * Work item id → humans' feedback on its revision to rework and answer, oldest first (issue #26). Not
   * persisted: unanswered feedback is read again from the tracker after a restart.
   */
  revisionFeedback: Record<string, PendingFeedback[]>;
  /** Feedback ids the feedback poller has reported in this process (each triggers at most once). */
  seenFeedback: Record<string, true>;
  /**
   * Work item id → what earlier runs on it did, oldest first (issue #28 §1): every later prompt for the item
   * starts with it. Restored from storage at start (migration 011).
   */
  taskContext: Record<string, TaskContextEntry[]>;
  /**
   * Proposal id (its tracking item's id) → a plan waiting for, or decided by, a human (issue #29 §2). Restored
   * from storage at start (migration 012): the pending one, and decided ones for the dashboard.
   */
  proposals: Record<string, Proposal>;
  /**
   * Work item id → the conflict the merge queue sent it back to an implementor with (issue #30 §5): the
   * implementor's prompt shows it. Kept until the item is approved again or closed; not persisted (the
   * item's comment keeps it for people).
   */
  mergeConflicts: Record<string, MergeConflict>;
  /**
   * The tracker's own merge queue (GitHub's, issue #30): `inUse` once a step handed a revision to it (a
   * step that rebased or merged itself clears it: Flotilla's queue is in use); `queued`, work item id → the
   * revision head handed to it, until the item leaves `approved` or its head moves. Not persisted: after a
   * restart the first step finds out again.
   */
  trackerMergeQueue: { inUse: boolean; queued: Record<string, string> };
  /**
   * Work item id → the versions of its body (`WorkItem.bodyHash`, '' when the provider reports none) a refine
   * run was started on or an applied refinement wrote (issue #29): the engine never refines those again on
   * its own (handlers/handle-auto-refinement.ts). Restored from storage at start (migration 018).
   */
  refinedBodies: Record<string, string[]>;
}

/** A human's feedback on an item's revision, waiting for an implementor's rework and then for the answer. */
export interface PendingFeedback {
  revisionID: string;
  feedback: RevisionFeedback;
  /** The implementor run it was given to (its prompt carries it); null until one is requested. */
  sessionID: string | null;
  /** What that run did (its summary and changed files): posted as the reply once the item is in review. */
  answer: { summary: string; files: string[] } | null;
}

/** The runtime name runs of an adapter that does not name itself are parked under. */
export const UNNAMED_RUNTIME = 'agent';

export function buildInitialEngineState(overrides: Partial<EngineState> = {}): EngineState {
  return {
    workItems: {},
    revisions: {},
    specs: {},
    agentRuns: {},
    errors: [],
    lastPlannedSHAs: {},
    dispatchQueue: [],
    failures: {},
    reviewRounds: {},
    checkRounds: {},
    parkings: {},
    accountsLastUsed: {},
    budgetPause: null,
    waitingForInput: {},
    revisionFeedback: {},
    seenFeedback: {},
    taskContext: {},
    proposals: {},
    mergeConflicts: {},
    trackerMergeQueue: { inUse: false, queued: {} },
    refinedBodies: {},
    ...overrides,
  };
}

/** `planner`, `implementor:<id>` or `reviewer:<id>`. */
export function failureKey(role: AgentRun['role'], workItemID?: string): string {
  return role === 'planner' ? 'planner' : `${role}:${workItemID ?? ''}`;
}
