import { buildBudgetCaps } from '../../app/build-engine-budget.ts';
import type { FlotillaConfig } from '../../config/index.ts';
import type { BudgetCaps } from '../../domain/index.ts';
import { nextPeriodStart, periodKeysOf } from '../../engine/budget/budget-calendar.ts';
import { applyCapOverrides } from '../../engine/budget/budget-ledger.ts';
import type { BudgetLedgerRepository } from '../../storage/index.ts';

export interface PeriodSpend {
  /** `YYYY-MM-DD` or `YYYY-MM` in the budget's time zone. */
  period: string;
  /** Real spend, what the cap counts. */
  spentUSD: number;
  /** Every run of the period, scripted ones included. */
  runs: number;
  /** Scripted runs' made-up cost in the period: counted against no cap. */
  scriptedUSD: number;
  capUSD: number | null;
  /** Null without a cap; never below 0. */
  remainingUSD: number | null;
  /** The cap is reached: dispatch pauses until `resumesAt` (epoch ms) or a raised cap. */
  reached: boolean;
  resumesAt: number;
}

/** `flotilla budget --json`: spend against every cap. */
export interface BudgetReport {
  timeZone: string;
  /** The caps in force: the config's with `flotilla budget set` overrides on top. */
  caps: BudgetCaps;
  /** What `flotilla budget set` changed (null: cap removed). */
  overrides: Record<string, number | null>;
  day: PeriodSpend;
  month: PeriodSpend;
  totalSpentUSD: number;
  /** Every scripted run's made-up cost: shown, counted against no cap. */
  totalScriptedUSD: number;
  /** Work items by real spend, highest first, against `caps.perItemUsd`. */
  items: {
    workItemID: string;
    spentUSD: number;
    runs: number;
    remainingUSD: number | null;
    reached: boolean;
  }[];
}

const ITEMS_SHOWN = 20;

/**
 * Spend against every cap, from the ledger. Scripted runs' costs are made up: they count against no cap
 * (the engine's budget leaves them out the same way, engine/budget/runs-scripted.ts) and are reported apart.
 */
export function buildBudgetReport(
  config: FlotillaConfig,
  ledger: BudgetLedgerRepository,
  now: number,
): BudgetReport {
  const { timeZone } = config.budgets;
  const overrides = ledger.capOverrides();
  const caps = applyCapOverrides(buildBudgetCaps(config.budgets), overrides);
  const keys = periodKeysOf(now, timeZone);
  const period = (kind: 'day' | 'month'): PeriodSpend => {
    const totals = ledger.totals(kind === 'day' ? { day: keys.day } : { month: keys.month });
    const capUSD = kind === 'day' ? caps.dailyUsd : caps.monthlyUsd;
    return {
      period: kind === 'day' ? keys.day : keys.month,
      spentUSD: totals.costUSD,
      runs: totals.runs,
      scriptedUSD: totals.scriptedCostUSD,
      capUSD,
      remainingUSD: capUSD === null ? null : Math.max(0, capUSD - totals.costUSD),
      reached: capUSD !== null && totals.costUSD >= capUSD,
      resumesAt: nextPeriodStart(now, timeZone, kind),
    };
  };
  const all = ledger.totals({});
  return {
    timeZone,
    caps,
    overrides: { ...overrides },
    day: period('day'),
    month: period('month'),
    totalSpentUSD: all.costUSD,
    totalScriptedUSD: all.scriptedCostUSD,
    items: ledger.spendByWorkItem(ITEMS_SHOWN).map((item) => ({
      workItemID: item.workItemID,
      spentUSD: item.costUSD,
      runs: item.runs,
      remainingUSD: caps.perItemUsd === null ? null : Math.max(0, caps.perItemUsd - item.costUSD),
      reached: caps.perItemUsd !== null && item.costUSD >= caps.perItemUsd,
    })),
  };
}
