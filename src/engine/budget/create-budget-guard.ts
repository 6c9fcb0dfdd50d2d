import {
  type AgentRole,
  type AgentRunRequestCommand,
  type BudgetCaps,
  type BudgetPause,
  type BudgetPeriod,
  type BudgetStop,
  type EngineEvent,
  perRunCapFor,
} from '../../domain/index.ts';
import type { Clock } from '../engine-config.ts';
import { dispatchWorkItemID } from '../scheduler/dispatch-work-item-id.ts';
import { nextPeriodStart, periodKeysOf } from './budget-calendar.ts';
import type { BudgetConfig } from './budget-config.ts';
import { applyCapOverrides } from './budget-ledger.ts';
import { estimateRunCost } from './estimate-run-cost.ts';

/** The scheduler's question before starting a run, and the budget's answer. */
export type BudgetAdmission =
  | { ok: true; maxBudgetUsd: number | null; events: EngineEvent[] }
  /** `retryAt` null: the run is refused for good (its item is parked); else it waits until then. */
  | { ok: false; reason: string; retryAt: number | null; events: EngineEvent[] };

export interface BudgetGuard {
  admit(command: AgentRunRequestCommand): BudgetAdmission;
  /** A run the scheduler admitted: its live usage counts from now on. */
  runStarted(sessionID: string, role: AgentRole, workItemID: string | null): void;
  /** The run's cumulative cost so far; returns the cap it reached, or null while within every cap. */
  reportUsage(sessionID: string, costUSD: number): BudgetStop | null;
  /** The run ended; its final cost (null: unknown, keep the last reported). */
  runFinished(sessionID: string, costUSD: number | null): void;
}

interface TrackedRun {
  role: AgentRole;
  workItemID: string | null;
  day: string;
  month: string;
  costUSD: number;
  /** Set once the run ended; its cost then counts in the role's estimate. */
  endedAt: number | null;
}

const DEFAULT_ESTIMATE_FLOOR_USD = 0.05;
const DEFAULT_ESTIMATE_WINDOW = 20;
const DEFAULT_RECHECK_MS = 15_000;

/**
 * Budget enforcement. Before a run starts (`admit`): refused when the day's or month's remaining budget
 * cannot cover the role's estimated cost (dispatch pauses until the next period or a raised cap), or when
 * the item's cannot (the item is parked). While it runs (`reportUsage`, on every model request's usage):
 * stopped when it reaches the per-run cap, or the item's, day's or month's spend reaches its cap.
 * Spend = the ledger's recorded runs + this process's runs from memory (live usage, then final cost), so a
 * run is never counted twice and a finished run counts before persistence has written it.
 */
export function createBudgetGuard(config: BudgetConfig, clock: Clock): BudgetGuard {
  const timeZone = config.timeZone ?? 'UTC';
  const floor = config.estimateFloorUsd ?? DEFAULT_ESTIMATE_FLOOR_USD;
  const window = config.estimateWindow ?? DEFAULT_ESTIMATE_WINDOW;
  const recheckMs = config.recheckMs ?? DEFAULT_RECHECK_MS;
  const { ledger } = config;
  const runs = new Map<string, TrackedRun>();
  let pause: BudgetPause | null = null;

  const caps = () => applyCapOverrides(config.caps, ledger.capOverrides());

  function spent(filter: { day?: string; month?: string; workItemID?: string }): number {
    const recorded = ledger.spentUSD(filter, [...runs.keys()]);
    let live = 0;
    for (const run of runs.values()) {
      if (filter.day !== undefined && run.day !== filter.day) continue;
      if (filter.month !== undefined && run.month !== filter.month) continue;
      if (filter.workItemID !== undefined && run.workItemID !== filter.workItemID) continue;
      live += run.costUSD;
    }
    return recorded + live;
  }

  /** The role's latest ended runs' costs: this process's from memory, older ones from the ledger. */
  function recentCosts(role: AgentRole): number[] {
    const ended = [...runs.values()]
      .filter((run) => run.role === role && run.endedAt !== null)
      .sort((a, b) => (b.endedAt ?? 0) - (a.endedAt ?? 0))
      .map((run) => run.costUSD)
      .slice(0, window);
    if (ended.length >= window) return ended;
    return [...ended, ...ledger.recentRunCosts(role, window - ended.length, [...runs.keys()])];
  }

  function periodState(period: BudgetPeriod, current: BudgetCaps, now: number) {
    const cap = period === 'day' ? current.dailyUsd : current.monthlyUsd;
    if (cap === null) return null;
    const keys = periodKeysOf(now, timeZone);
    const spentUSD = spent(period === 'day' ? { day: keys.day } : { month: keys.month });
    return { period, capUSD: cap, spentUSD };
  }

  function pauseChange(next: BudgetPause | null, now: number): EngineEvent[] {
    const changed =
      (pause === null) !== (next === null) ||
      (pause !== null && next !== null && (pause.period !== next.period || pause.capUSD !== next.capUSD));
    pause = next;
    return changed ? [{ type: 'budgetPauseChanged', pause: next, at: now }] : [];
  }

  return {
    admit(command) {
      const now = clock.now();
      const current = caps();
      const role: AgentRole =
        command.type === 'requestPlannerRun'
          ? 'planner'
          : command.type === 'requestImplementorRun'
            ? 'implementor'
            : 'reviewer';
      const estimate = estimateRunCost(recentCosts(role), floor);
      for (const period of ['day', 'month'] as const) {
        const state = periodState(period, current, now);
        if (state === null || state.capUSD - state.spentUSD >= estimate) continue;
        const resumesAt = nextPeriodStart(now, timeZone, period);
        const events = pauseChange({ ...state, resumesAt, since: pause?.since ?? now }, now);
        return {
          ok: false,
          reason: `the ${period === 'day' ? "day's" : "month's"} budget is spent`,
          retryAt: Math.min(resumesAt, now + recheckMs),
          events,
        };
      }
      const events = pauseChange(null, now);
      const workItemID = dispatchWorkItemID(command);
      if (workItemID !== null && current.perItemUsd !== null && role !== 'planner') {
        const spentUSD = spent({ workItemID });
        if (current.perItemUsd - spentUSD < estimate) {
          events.push({
            type: 'workItemOverBudget',
            workItemID,
            scope: 'item',
            role,
            spentUSD,
            capUSD: current.perItemUsd,
            estimateUSD: estimate,
            at: now,
          });
          return { ok: false, reason: `work item #${workItemID} is over its budget`, retryAt: null, events };
        }
      }
      return { ok: true, maxBudgetUsd: perRunCapFor(current, role), events };
    },
    runStarted(sessionID, role, workItemID) {
      const { day, month } = periodKeysOf(clock.now(), timeZone);
      runs.set(sessionID, { role, workItemID, day, month, costUSD: 0, endedAt: null });
    },
    reportUsage(sessionID, costUSD) {
      const run = runs.get(sessionID);
      if (run === undefined) return null;
      run.costUSD = Math.max(run.costUSD, costUSD);
      const current = caps();
      const perRun = perRunCapFor(current, run.role);
      if (perRun !== null && run.costUSD >= perRun) {
        return { scope: 'run', spentUSD: run.costUSD, capUSD: perRun };
      }
      if (run.workItemID !== null && current.perItemUsd !== null) {
        const spentUSD = spent({ workItemID: run.workItemID });
        if (spentUSD >= current.perItemUsd) return { scope: 'item', spentUSD, capUSD: current.perItemUsd };
      }
      if (current.dailyUsd !== null) {
        const spentUSD = spent({ day: run.day });
        if (spentUSD >= current.dailyUsd) return { scope: 'day', spentUSD, capUSD: current.dailyUsd };
      }
      if (current.monthlyUsd !== null) {
        const spentUSD = spent({ month: run.month });
        if (spentUSD >= current.monthlyUsd) return { scope: 'month', spentUSD, capUSD: current.monthlyUsd };
      }
      return null;
    },
    runFinished(sessionID, costUSD) {
      const run = runs.get(sessionID);
      // Kept (not deleted): the ledger row may not be written yet, and the exclusion keeps it counted once.
      if (run === undefined) return;
      if (costUSD !== null) run.costUSD = costUSD;
      run.endedAt = clock.now();
    },
  };
}
