import type { AgentRunRequestCommand, EngineEvent, WorkItemPriority } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Clock, SchedulerConfig } from '../engine-config.ts';
import { buildDispatchKey } from '../state-store/dispatch-key.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { compareQueuedDispatches, type RankedDispatch } from './compare-queued-dispatches.ts';
import { computeRetryDelay } from './compute-retry-delay.ts';
import { dispatchWorkItemID } from './dispatch-work-item-id.ts';
import { findSharedPath } from './estimate-touched-files.ts';
import type { ResourceVerdict } from './resource-gate.ts';

/** A run the scheduler admitted: the engine builds the *Requested event and starts the agent from it. */
export interface AdmittedRun {
  sessionID: string;
  command: AgentRunRequestCommand;
  at: number;
  /** The run's budget cap (USD) when one applies (budget/create-budget-guard.ts). */
  maxBudgetUsd?: number;
  /** The files it was expected to change (estimate-touched-files.ts), recorded to check the estimate. */
  files?: readonly string[];
}

/** The budget's verdict on starting a run now (see budget/create-budget-guard.ts). */
export type BudgetCheck =
  | { ok: true; maxBudgetUsd: number | null; events: EngineEvent[] }
  | { ok: false; reason: string; retryAt: number | null; events: EngineEvent[] };

export type Revalidation = { ok: true; command: AgentRunRequestCommand } | { ok: false; reason: string };

export interface SchedulerDeps {
  config: SchedulerConfig;
  clock: Clock;
  logger: Logger;
  getState: () => EngineState;
  generateSessionID: () => string;
  /** Emits an event into the engine queue (internal: accepted while stopping). */
  emit: (event: EngineEvent) => void;
  /** Emits the run's *Requested event, then starts the agent. Called synchronously on admission. */
  startRun: (run: AdmittedRun) => void;
  /** Re-checks a queued request against the current state just before it starts. */
  revalidate: (command: AgentRunRequestCommand, state: EngineState) => Revalidation;
  /**
   * Until when the command's runtime is parked by a rate or usage limit (epoch ms), or null when it may
   * start; such requests wait in the queue (`parked`) and start by themselves when the parking ends.
   */
  parkedUntil?: (command: AgentRunRequestCommand, state: EngineState) => number | null;
  /**
   * Whether the budget covers the run (absent: no budgets). Refused with `retryAt`: it waits, queued with
   * reason `budget`; refused without: it is dropped (the budget's events park its item).
   */
  checkBudget?: (command: AgentRunRequestCommand) => BudgetCheck;
  /**
   * Whether the machine holds one more agent of the command's runtime now (absent: always). Asked only while
   * another run is active, so one run can always start; refused, the request waits with reason `resources`.
   */
  checkResources?: (command: AgentRunRequestCommand) => ResourceVerdict;
}

export interface Scheduler {
  /**
   * Admits a run request that passed guards and policy: starts it now (returns no events; *Requested is
   * emitted by startRun) or queues it (returns `dispatchQueued`).
   */
  submit(
    command: AgentRunRequestCommand,
    snapshot: EngineState,
    files?: readonly string[] | null,
  ): EngineEvent[];
  /** True when a run with this key was admitted and has not finished yet (queued requests do not count). */
  isKeyActive(key: string): boolean;
  /** True when any run for the work item was admitted and has not finished yet. */
  isWorkItemActive(workItemID: string): boolean;
  /** Called once a run has ended for good (result, failure or provisioning failure). */
  runFinished(sessionID: string): void;
  /**
   * Counts a run a previous process started (adopt-runs.ts) as admitted, without checks: it already runs.
   * It holds a slot and its key until `runFinished`.
   */
  adopt(sessionID: string, key: string, workItemID: string | null): void;
  activeSessionIDs(): string[];
  activeCount(): number;
  queuedCount(): number;
  /** Queued requests waiting for the day's or month's budget (a paused dispatch). */
  budgetWaitingCount(): number;
  /**
   * Drops the queued request with this key now (its item's state made it moot), returning its
   * `dispatchDropped`; nothing when none is queued. An admitted run is not touched.
   */
  drop(key: string, reason: string): EngineEvent[];
  /** Refuses new work and drops the queue. */
  stop(): void;
}

const PRIORITY_RANK: Record<WorkItemPriority, number> = { high: 3, medium: 2, low: 1 };
/** Less than one priority step: a review outranks implementation of equal priority, not of higher. */
const REVIEW_BONUS = 0.5;
/** The planner goes before any implementation work: it creates that work. */
const PLANNER_PRIORITY = 4;

interface ActiveRun {
  key: string;
  workItemID: string | null;
  /** The files it is expected to change (estimate-touched-files.ts); null: unknown. */
  files: readonly string[] | null;
}

type QueuedRun = RankedDispatch & { files: readonly string[] | null };

/**
 * Admits run requests that passed the guards and the policy: starts one at once when a slot is free and no
 * retry backoff applies (`computeRetryDelay` over the state's failure record), otherwise queues it by key.
 * When a slot frees or a backoff ends, the first entry (`compareQueuedDispatches`: priority, then age) is
 * re-checked against the current state (`revalidate`) and started, or dropped with `dispatchDropped`.
 */
export function createScheduler(deps: SchedulerDeps): Scheduler {
  const { config, clock, logger } = deps;
  const active = new Map<string, ActiveRun>();
  const queue = new Map<string, QueuedRun>();
  let stopped = false;
  let timer: { handle: unknown; at: number } | null = null;

  function rank(command: AgentRunRequestCommand, state: EngineState, now: number) {
    const workItemID = dispatchWorkItemID(command);
    if (workItemID === null) return { priority: PLANNER_PRIORITY, ageKey: now };
    const item = state.workItems[workItemID];
    // A review finishes work already paid for: it goes before new implementation work of the same priority.
    const reviewBonus = command.type === 'requestReviewerRun' ? REVIEW_BONUS : 0;
    const priority = (item?.priority ? PRIORITY_RANK[item.priority] : 0) + reviewBonus;
    const created = item ? Date.parse(item.createdAt) : Number.NaN;
    return { priority, ageKey: Number.isNaN(created) ? now : created };
  }

  function backoffUntil(command: AgentRunRequestCommand, state: EngineState): number | null {
    // Dispatch keys and failure keys share one shape: the failures of exactly this kind of run.
    const failure = state.failures[buildDispatchKey(command)];
    if (!failure) return null;
    return (
      failure.lastFailedAt + computeRetryDelay(failure.attempts, config.retryBaseDelay, config.retryMaxDelay)
    );
  }

  /** Starts the run if the budget covers it; returns the budget's events (a pause, a parked item, a queue). */
  function admit(
    command: AgentRunRequestCommand,
    state: EngineState,
    files: readonly string[] | null,
  ): EngineEvent[] {
    const budget = deps.checkBudget?.(command) ?? { ok: true, maxBudgetUsd: null, events: [] };
    if (!budget.ok) {
      if (budget.retryAt === null) {
        logger.info('run refused by the budget', { key: buildDispatchKey(command), reason: budget.reason });
        return budget.events;
      }
      const waiting = queue.get(buildDispatchKey(command))?.reason === 'budget';
      const queued = enqueue(command, state, 'budget', budget.retryAt, undefined, files);
      return waiting ? budget.events : [...budget.events, queued];
    }
    const sessionID = deps.generateSessionID();
    active.set(sessionID, { key: buildDispatchKey(command), workItemID: dispatchWorkItemID(command), files });
    deps.startRun({
      sessionID,
      command,
      at: clock.now(),
      ...(budget.maxBudgetUsd !== null && { maxBudgetUsd: budget.maxBudgetUsd }),
      ...(files !== null && { files }),
    });
    return budget.events;
  }

  function enqueue(
    command: AgentRunRequestCommand,
    state: EngineState,
    reason: QueuedRun['reason'],
    notBefore: number | null,
    detail?: string,
    files?: readonly string[] | null,
  ): EngineEvent {
    const now = clock.now();
    const key = buildDispatchKey(command);
    const { priority, ageKey } = rank(command, state, now);
    const existing = queue.get(key);
    queue.set(key, {
      key,
      command,
      reason,
      ...(detail !== undefined && { detail }),
      notBefore,
      priority,
      ageKey,
      queuedAt: existing?.queuedAt ?? now,
      files: files === undefined ? (existing?.files ?? null) : files,
    });
    armTimer();
    return {
      type: 'dispatchQueued',
      command,
      reason,
      ...(detail !== undefined && { detail }),
      notBefore,
      priority,
      at: now,
    };
  }

  /**
   * The machine's verdict on one more run while others are active (one run always starts). Null: it may
   * start; else the event of its waiting — emitted only when what it waits for changed, so re-checks every
   * few seconds do not flood the event queue.
   */
  function waitForResources(
    command: AgentRunRequestCommand,
    state: EngineState,
    files: readonly string[] | null,
  ): EngineEvent[] | null {
    if (deps.checkResources === undefined || active.size === 0) return null;
    const verdict = deps.checkResources(command);
    if (verdict.ok) return null;
    const existing = queue.get(buildDispatchKey(command));
    const same = existing?.reason === 'resources' && existing.detail === verdict.detail;
    const event = enqueue(command, state, 'resources', verdict.retryAt, verdict.detail, files);
    return same ? [] : [event];
  }

  /**
   * Wakes the scheduler at the earliest backoff expiry, so a retry starts without outside events. An entry
   * already due but still queued is woken for at once while a slot is free (else the run that frees one
   * drains it): a timer can fire a millisecond early by the wall clock (Node's timers run on a monotonic
   * one), so `drain` may find its entry not yet due and this clock reading find it past.
   */
  function armTimer(): void {
    const now = clock.now();
    const slotFree = active.size < config.maxConcurrentAgents;
    const waiting = [...queue.values()]
      .map((entry) => entry.notBefore)
      .filter((at): at is number => at !== null && (at > now || slotFree));
    const next = waiting.length > 0 ? Math.min(...waiting) : null;
    if (timer && (next === null || timer.at !== next)) {
      clock.clearTimeout(timer.handle);
      timer = null;
    }
    if (next !== null && !timer && !stopped) {
      const handle = clock.setTimeout(
        () => {
          timer = null;
          drain();
        },
        Math.max(0, next - now),
      );
      timer = { handle, at: next };
    }
  }

  /** The active run whose expected files overlap these, and the path they share; null when none does. */
  function conflictOf(files: readonly string[] | null): string | null {
    if (files === null) return null;
    for (const run of active.values()) {
      if (run.files === null) continue;
      const shared = findSharedPath(files, run.files);
      if (shared !== null) {
        return `touches ${shared}, as the run${run.workItemID === null ? '' : ` for #${run.workItemID}`} in progress does`;
      }
    }
    return null;
  }

  /**
   * Starts queued runs while slots are free, best first, re-checking each against the current state. A run
   * that would change a file a running agent is changing waits (reason `conflict`) and the next one is
   * tried; it is tried again when a run ends.
   */
  function drain(): void {
    if (stopped) return;
    const conflicting = new Set<string>();
    while (active.size < config.maxConcurrentAgents) {
      const now = clock.now();
      const eligible = [...queue.values()]
        .filter(
          (entry) => (entry.notBefore === null || entry.notBefore <= now) && !conflicting.has(entry.key),
        )
        .sort(compareQueuedDispatches);
      const next = eligible[0];
      if (!next) break;
      const conflict = conflictOf(next.files);
      if (conflict !== null) {
        conflicting.add(next.key);
        if (next.reason !== 'conflict' || next.detail !== conflict) {
          deps.emit(enqueue(next.command, deps.getState(), 'conflict', null, conflict));
        }
        continue;
      }
      // Its runtime may have been parked while it waited for a slot: it waits for the parking instead.
      const parkedUntil = deps.parkedUntil?.(next.command, deps.getState()) ?? null;
      if (parkedUntil !== null && parkedUntil > now) {
        deps.emit(enqueue(next.command, deps.getState(), 'parked', parkedUntil));
        continue;
      }
      const waiting = waitForResources(next.command, deps.getState(), next.files);
      if (waiting !== null) {
        for (const event of waiting) deps.emit(event);
        continue;
      }
      queue.delete(next.key);
      const verdict = deps.revalidate(next.command, deps.getState());
      if (!verdict.ok) {
        logger.info('queued dispatch dropped', { key: next.key, reason: verdict.reason });
        deps.emit({ type: 'dispatchDropped', command: next.command, reason: verdict.reason, at: now });
        continue;
      }
      for (const event of admit(verdict.command, deps.getState(), next.files)) deps.emit(event);
    }
    armTimer();
  }

  return {
    submit(command, snapshot, files = null) {
      const now = clock.now();
      if (stopped) {
        return [{ type: 'dispatchDropped', command, reason: 'engine is shutting down', at: now }];
      }
      const key = buildDispatchKey(command);
      const existing = queue.get(key);
      const notBefore = backoffUntil(command, snapshot);
      // A repeated request for a queued key re-evaluates it (e.g. a human cleared the backoff) and only
      // reports a change, so bursts of identical requests do not flood the event queue.
      if (notBefore !== null && notBefore > now) {
        const event = enqueue(command, snapshot, 'backoff', notBefore, undefined, files);
        return existing?.reason === 'backoff' && existing.notBefore === notBefore ? [] : [event];
      }
      const parkedUntil = deps.parkedUntil?.(command, snapshot) ?? null;
      if (parkedUntil !== null && parkedUntil > now) {
        const event = enqueue(command, snapshot, 'parked', parkedUntil, undefined, files);
        return existing?.reason === 'parked' && existing.notBefore === parkedUntil ? [] : [event];
      }
      if (active.size >= config.maxConcurrentAgents) {
        const event = enqueue(command, snapshot, 'capacity', null, undefined, files);
        return existing?.reason === 'capacity' ? [] : [event];
      }
      const conflict = conflictOf(files);
      if (conflict !== null) {
        const event = enqueue(command, snapshot, 'conflict', null, conflict, files);
        return existing?.reason === 'conflict' && existing.detail === conflict ? [] : [event];
      }
      // A request waiting for the budget is answered by its re-check, not by every repeated request.
      if (existing?.reason === 'budget' && existing.notBefore !== null && existing.notBefore > now) return [];
      const waiting = waitForResources(command, snapshot, files);
      if (waiting !== null) return waiting;
      queue.delete(key);
      const events = admit(command, snapshot, files);
      armTimer();
      return events;
    },
    isKeyActive(key) {
      for (const run of active.values()) if (run.key === key) return true;
      return false;
    },
    isWorkItemActive(workItemID) {
      for (const run of active.values()) if (run.workItemID === workItemID) return true;
      return false;
    },
    adopt(sessionID, key, workItemID) {
      active.set(sessionID, { key, workItemID, files: null });
    },
    runFinished(sessionID) {
      if (!active.delete(sessionID)) return;
      // The run's memory is free now: requests waiting for resources are due at once, not at their re-check.
      const now = clock.now();
      for (const entry of queue.values()) if (entry.reason === 'resources') entry.notBefore = now;
      drain();
    },
    activeSessionIDs: () => [...active.keys()],
    activeCount: () => active.size,
    queuedCount: () => queue.size,
    budgetWaitingCount: () => [...queue.values()].filter((entry) => entry.reason === 'budget').length,
    drop(key, reason) {
      const entry = queue.get(key);
      if (entry === undefined) return [];
      queue.delete(key);
      armTimer();
      logger.info('queued dispatch dropped', { key, reason });
      return [{ type: 'dispatchDropped', command: entry.command, reason, at: clock.now() }];
    },
    stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clock.clearTimeout(timer.handle);
      timer = null;
      const at = clock.now();
      for (const entry of queue.values()) {
        deps.emit({ type: 'dispatchDropped', command: entry.command, reason: 'engine is shutting down', at });
      }
      queue.clear();
    },
  };
}
