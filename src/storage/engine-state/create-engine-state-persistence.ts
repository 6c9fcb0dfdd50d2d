import type { Database } from 'better-sqlite3';
import {
  type AgentNoted,
  type AgentRun,
  type EngineEvent,
  type ErrorEntry,
  isAgentRunActive,
  type Proposal,
  type RuntimeParking,
  type TaskContextEntry,
  type WaitingSession,
} from '../../domain/index.ts';
import { createSqliteConnection } from '../sql/create-sqlite-connection.ts';
import type { SqlConnection } from '../sql/sql-connection.ts';
import {
  type AgentConversationRepository,
  createAgentConversationRepository,
} from './agent-conversation-repository.ts';
import { type AgentNoteRepository, createAgentNoteRepository } from './agent-note-repository.ts';
import {
  type AgentRunRepository,
  createAgentRunRepository,
  type ListRunsQuery,
  type StoredAgentRun,
} from './agent-run-repository.ts';
import { type BudgetLedgerRepository, createBudgetLedgerRepository } from './budget-ledger-repository.ts';
import { createEngineErrorRepository, type StoredEngineError } from './engine-error-repository.ts';
import { createMemoryRepository, type MemoryRepository } from './memory-repository.ts';
import { createPlannedSpecRepository } from './planned-spec-repository.ts';
import { createProposalRepository, type ProposalRepository } from './proposal-repository.ts';
import { createRefinedBodyRepository, recordRefinedBodies } from './refined-body-repository.ts';
import { createRunTranscriptRepository, type RunTranscriptRepository } from './run-transcript-repository.ts';
import { createRuntimeParkingRepository } from './runtime-parking-repository.ts';
import { createTaskContextRepository, type TaskContextRepository } from './task-context-repository.ts';
import { createWaitingSessionRepository } from './waiting-session-repository.ts';

/** The error an interrupted run is given when the next start finds it still active. */
export const INTERRUPTED_RUN_ERROR = 'interrupted: the control plane stopped during this run';

/**
 * The parts of the engine's state that are kept, as persistence reads them after each event. The engine's
 * `EngineState` has these fields; declaring them here keeps storage below the engine (it never imports it).
 */
export interface PersistedEngineState {
  agentRuns: Readonly<Record<string, AgentRun>>;
  /** Spec path → blob SHA last planned successfully. */
  lastPlannedSHAs: Readonly<Record<string, string>>;
  errors: readonly ErrorEntry[];
  /** Parked runtimes and exhausted accounts (provider limits), by key. */
  parkings: Readonly<Record<string, RuntimeParking>>;
  /** Work item id → the session waiting for a human's answers. */
  waitingForInput: Readonly<Record<string, WaitingSession>>;
  /** Work item id → what earlier runs on it did, oldest first (migration 011). */
  taskContext: Readonly<Record<string, readonly TaskContextEntry[]>>;
  /** Proposal id → a plan waiting for, or decided by, a human (migration 012). */
  proposals: Readonly<Record<string, Proposal>>;
  /** Work item id → the body versions refined (migration 018); absent: none recorded. */
  refinedBodies?: Readonly<Record<string, readonly string[]>>;
}

export interface EngineStatePersistence {
  /**
   * What a new engine starts from (pass it as `initialState`): the planned spec SHAs, so a restart never
   * re-plans what was planned; parkings; waiting sessions; and when each account was last used (from the
   * run history), so runs stay on the account in use and fail over to the least recently used one. Runs are
   * deliberately not restored: a run that was active when the process died has no session behind it any
   * more, so it is recorded as failed (see recoverInterruptedRuns) and the engine's orphan handling returns
   * its work item to `pending`.
   */
  loadInitialState(options?: RecoveryOptions): Pick<
    PersistedEngineState,
    'lastPlannedSHAs' | 'parkings' | 'waitingForInput'
  > & {
    /** Every item's task context, oldest first. */
    taskContext: Record<string, TaskContextEntry[]>;
    /** Account name → when a run on it was last requested. */
    accountsLastUsed: Record<string, number>;
    /** The pending proposals (at most one), by id. */
    proposals: Record<string, Proposal>;
    /** Work item id → the body versions refined, so none is refined again on its own (migration 018). */
    refinedBodies: Record<string, string[]>;
  };
  /**
   * The sessions waiting for answers: their worktrees and state directories must survive the crash
   * recovery at start (they are resumed once answered).
   */
  listWaitingSessions(): WaitingSession[];
  /** Spec path → blob SHA last planned successfully (read only: what `flotilla prompt planner` starts from). */
  loadPlannedSHAs(): Record<string, string>;
  /**
   * Marks runs left `requested`/`running` by a previous process as failed (but those the new process adopts,
   * `keep`); returns them. Idempotent.
   */
  recoverInterruptedRuns(options?: RecoveryOptions): StoredAgentRun[];
  /** The runs left `requested`/`running` (by a previous process, before recovery). */
  listActiveRuns(): StoredAgentRun[];
  /** Engine listener: `engine.onEvent((event, state) => persistence.record(event, state))`. */
  record(event: EngineEvent, stateAfter: PersistedEngineState): void;
  listRuns(query?: ListRunsQuery): StoredAgentRun[];
  getRun(sessionID: string): StoredAgentRun | null;
  /** The summed reported cost (USD) of every recorded run. */
  totalCostUSD(): number;
  listErrors(query?: { limit?: number }): StoredEngineError[];
  /** The budget ledger (migration 006): every run's cost and tokens, and the runtime cap overrides. */
  ledger: BudgetLedgerRepository;
  /** The task context entries (migration 011): what each run did on its work item. */
  taskContext: TaskContextRepository;
  /** The proposals (migration 012): plans waiting for, or decided by, a human. */
  proposals: ProposalRepository;
  /** The repository's memories (migration 013): agents' `store_memory`, humans' edits. */
  memories: MemoryRepository;
  /** Agents' decisions and non-blocking questions (migration 013). */
  notes: AgentNoteRepository;
  /** Conversations between agents (migration 016): `ask_agent` questions and their answers. */
  conversations: AgentConversationRepository;
  /** Remote runs' transcripts as their workers streamed them (cluster mode, PostgreSQL migration 007). */
  transcripts: RunTranscriptRepository;
}

export interface RecoveryOptions {
  /** Session ids of active runs a new process adopts (cluster mode: they go on on the workers). */
  keep?: ReadonlySet<string>;
}

export interface EngineStatePersistenceOptions {
  /** Epoch milliseconds; used for the end time of interrupted runs and planned SHA timestamps. */
  now?: () => number;
  /** The day and month a time falls in for the budget (its time zone); default UTC. */
  periodKeysOf?: (at: number) => { day: string; month: string };
  /**
   * Cluster mode: the PostgreSQL connection (storage's `openPostgresState`) the whole engine state lives in
   * (runs, budget ledger, parkings, waiting sessions, planned specs, task context, proposals, memories,
   * notes, conversations, errors), so any controller and any clone's CLI sees it; `db` is then not used
   * here. Default: everything in `db`.
   */
  sharedState?: SqlConnection;
}

function utcPeriodKeys(at: number): { day: string; month: string } {
  const day = new Date(at).toISOString().slice(0, 10);
  return { day, month: day.slice(0, 7) };
}

/** The run lifecycle events, whose run (as the state holds it after the event) is saved. */
const RUN_EVENT_TYPES = new Set<EngineEvent['type']>([
  'plannerRequested',
  'plannerStarted',
  'plannerCompleted',
  'plannerFailed',
  'implementorRequested',
  'implementorStarted',
  'implementorCompleted',
  'implementorFailed',
  'reviewerRequested',
  'reviewerStarted',
  'reviewerCompleted',
  'reviewerFailed',
  'agentAskedQuestions',
  'userCancelledRun',
  'agentUsageReported',
]);

/** Events that can add, answer or remove a waiting session; the item's row follows the state. */
const WAITING_EVENT_TYPES = new Set<EngineEvent['type']>([
  'agentAskedQuestions',
  'plannerRequested',
  'implementorRequested',
  'reviewerRequested',
  'waitingSessionDiscarded',
]);

/** Run endings that may add a task context entry (state-store/apply-task-context-update.ts decides). */
const TASK_CONTEXT_EVENT_TYPES = new Set<EngineEvent['type']>([
  'implementorCompleted',
  'implementorFailed',
  'reviewerCompleted',
]);

const ERROR_EVENT_TYPES = new Set<EngineEvent['type']>(['commandRejected', 'commandFailed', 'errorRecorded']);

export function createEngineStatePersistence(
  db: Database,
  options: EngineStatePersistenceOptions = {},
): EngineStatePersistence {
  const now = options.now ?? Date.now;
  // Cluster mode: every repository on the cluster's PostgreSQL; on one machine, all in `db`.
  const shared = options.sharedState ?? createSqliteConnection(db);
  const runs: AgentRunRepository = createAgentRunRepository(shared);
  const plannedSpecs = createPlannedSpecRepository(shared);
  const errors = createEngineErrorRepository(shared);
  const parkings = createRuntimeParkingRepository(shared);
  let savedParkings: PersistedEngineState['parkings'] | null = null;
  const ledger = createBudgetLedgerRepository(shared);
  const periodKeysOf = options.periodKeysOf ?? utcPeriodKeys;

  /** The run's ledger row as the state has it after the event (live usage while it runs, final at the end). */
  function recordInLedger(event: EngineEvent, run: AgentRun): void {
    const keys = periodKeysOf(run.requestedAt);
    ledger.record({
      sessionID: run.sessionID,
      workItemID: run.role === 'planner' ? null : run.workItemID,
      role: run.role,
      runtime: run.runtime ?? null,
      model: event.type === 'agentUsageReported' ? event.model : null,
      account: run.account ?? null,
      day: keys.day,
      month: keys.month,
      costUSD: run.usage?.costUSD ?? null,
      inputTokens: run.usage?.inputTokens ?? null,
      outputTokens: run.usage?.outputTokens ?? null,
      ended: !isAgentRunActive(run),
      budgetStop: 'budgetStop' in event && event.budgetStop !== undefined ? event.budgetStop.scope : null,
      requestedAt: run.requestedAt,
      updatedAt: 'at' in event && typeof event.at === 'number' ? event.at : now(),
    });
  }
  const waitingSessions = createWaitingSessionRepository(shared);
  const taskContext = createTaskContextRepository(shared);
  const proposals = createProposalRepository(shared);
  const memories = createMemoryRepository(shared);
  const notes = createAgentNoteRepository(shared);
  const conversations = createAgentConversationRepository(shared);
  const refinedBodies = createRefinedBodyRepository(shared);

  /** The task context entries the event added (issue #28 §1): a run's end, answers, a plan, a mode's report. */
  function saveTaskContext(event: EngineEvent, stateAfter: PersistedEngineState): void {
    if (
      TASK_CONTEXT_EVENT_TYPES.has(event.type) &&
      'workItemID' in event &&
      event.workItemID !== null &&
      'sessionID' in event
    ) {
      for (const entry of stateAfter.taskContext[event.workItemID] ?? [])
        if (entry.sessionID === event.sessionID) taskContext.save(entry);
    }
    // A human's answers to a run's questions (issue #28 §1): kept once (INSERT OR IGNORE).
    if (event.type === 'questionsAnswered') {
      for (const entry of stateAfter.taskContext[event.workItemID] ?? [])
        if (entry.type === 'answers') taskContext.save(entry);
    }
    // A plan's summary, on each item it created or updated (issue #28 §1).
    if (event.type === 'planApplied') {
      for (const workItemID of [...event.created.map((item) => item.workItemID), ...event.updatedIDs])
        for (const entry of stateAfter.taskContext[workItemID] ?? [])
          if (entry.sessionID === event.sessionID) taskContext.save(entry);
    }
    // An applied investigation's report, on each fix item it created (issue #29).
    if (event.type === 'modeResultApplied') {
      for (const workItemID of event.createdIDs)
        for (const entry of stateAfter.taskContext[workItemID] ?? [])
          if (entry.sessionID === event.sessionID) taskContext.save(entry);
    }
  }

  /** What an agent recorded through its tools (the engine validated and redacted it); summaries are live only. */
  function recordNote(event: AgentNoted): void {
    const { note } = event;
    const source = {
      sessionID: event.sessionID,
      workItemID: event.workItemID,
      runtime: event.runtime,
    };
    if (note.kind === 'memory')
      memories.upsert({ ...source, topic: note.topic, text: note.text, source: event.role, at: event.at });
    else if (note.kind === 'decision')
      notes.save({
        ...source,
        kind: 'decision',
        role: event.role,
        text: note.decision,
        why: note.why,
        createdAt: event.at,
      });
    else if (note.kind === 'question')
      notes.save({
        ...source,
        kind: 'question',
        role: event.role,
        text: note.text,
        why: null,
        createdAt: event.at,
      });
  }

  // The state is the source of truth for a run: it has already applied the event (or refused it, in which
  // case the stored run simply stays as the state has it). Reading it from there keeps one set of rules.
  // One transaction per event, on whichever backend holds the state.
  const recordInTransaction = (event: EngineEvent, stateAfter: PersistedEngineState): void =>
    shared.transaction(() => {
      if (RUN_EVENT_TYPES.has(event.type) && 'sessionID' in event) {
        const run = stateAfter.agentRuns[event.sessionID];
        if (run !== undefined) {
          runs.save(run);
          recordInLedger(event, run);
        }
      }
      if (event.type === 'plannerCompleted') {
        // The SHAs the planner was given, as the state recorded them; not the specs' current SHAs.
        const planned: Record<string, string> = {};
        for (const path of event.specPaths) {
          const sha = stateAfter.lastPlannedSHAs[path];
          if (sha !== undefined) planned[path] = sha;
        }
        plannedSpecs.save(planned, event.at);
      }
      // Parkings change only with run endings; the state keeps the same object when they did not change.
      if (stateAfter.parkings !== savedParkings) {
        parkings.replaceAll(Object.values(stateAfter.parkings));
        savedParkings = stateAfter.parkings;
      }
      // A planner's resume names the questions item whose wait it takes over.
      const waitingItemID =
        event.type === 'plannerRequested'
          ? event.questionsItemID
          : 'workItemID' in event
            ? event.workItemID
            : undefined;
      if (WAITING_EVENT_TYPES.has(event.type) && waitingItemID !== undefined && waitingItemID !== null) {
        const waiting = stateAfter.waitingForInput[waitingItemID];
        if (waiting === undefined) waitingSessions.remove(waitingItemID);
        else if (waiting.sessionID === ('sessionID' in event ? event.sessionID : null))
          waitingSessions.save(waiting);
      }
      saveTaskContext(event, stateAfter);
      if (
        event.type === 'proposalCreated' ||
        event.type === 'proposalDecided' ||
        event.type === 'proposalStale'
      ) {
        const proposal =
          stateAfter.proposals[event.type === 'proposalCreated' ? event.proposal.id : event.proposalID];
        if (proposal !== undefined) {
          proposals.save(proposal);
          // A rejected or stale plan's SHAs go back to before it (the state decided which): write them as they are.
          if (event.type !== 'proposalCreated')
            plannedSpecs.replace(Object.keys(proposal.specSHAs), stateAfter.lastPlannedSHAs, event.at);
        }
      }
      // A refine run requested or stopped, a refinement applied: the refined body versions (issue #29).
      recordRefinedBodies(refinedBodies, event, stateAfter, now());
      if (event.type === 'agentNoted') recordNote(event);
      if (event.type === 'conversationCreated') conversations.save(event.conversation);
      if (event.type === 'conversationAnswered')
        conversations.finish(event.conversationID, event.status, event.answer, event.at);
      if (ERROR_EVENT_TYPES.has(event.type)) {
        // The state formats the entry (and skips duplicate rejections); find the one made for this event.
        for (const entry of stateAfter.errors) if (entry.event === event) errors.append(entry);
      }
    });

  const persistence: EngineStatePersistence = {
    loadInitialState(recovery) {
      persistence.recoverInterruptedRuns(recovery);
      const restored = Object.fromEntries(parkings.list().map((parking) => [parking.key, parking]));
      return {
        lastPlannedSHAs: plannedSpecs.load(),
        parkings: restored,
        waitingForInput: Object.fromEntries(
          waitingSessions.list().map((waiting) => [waiting.workItemID, waiting]),
        ),
        accountsLastUsed: runs.lastUseByAccount(),
        taskContext: taskContext.listAll(),
        proposals: Object.fromEntries(
          proposals.list({ status: 'pending' }).map((proposal) => [proposal.id, proposal]),
        ),
        refinedBodies: refinedBodies.load(),
      };
    },
    listWaitingSessions: () => waitingSessions.list(),
    loadPlannedSHAs: () => plannedSpecs.load(),
    recoverInterruptedRuns(recovery) {
      // A conversation still open belonged to runs that are gone: it will never be answered.
      conversations.stopOpen(now());
      const interrupted = runs.failActive(INTERRUPTED_RUN_ERROR, now(), recovery?.keep);
      // An interrupted refine run did not refine the version it was given (issue #29): it is refined again.
      refinedBodies.removeRuns(interrupted.map((run) => run.sessionID));
      return interrupted;
    },
    listActiveRuns: () => runs.listActive(),
    record(event, stateAfter) {
      recordInTransaction(event, stateAfter);
    },
    listRuns: (query) => runs.list(query),
    getRun: (sessionID) => runs.get(sessionID),
    totalCostUSD: () => runs.totalCostUSD(),
    listErrors: (query) => errors.list(query),
    ledger,
    taskContext,
    proposals,
    memories,
    notes,
    conversations,
    transcripts: createRunTranscriptRepository(shared),
  };
  return persistence;
}
