import { buildBudgetCaps } from '../../app/build-engine-budget.ts';
import type { FlotillaConfig } from '../../config/index.ts';
import { periodKeysOf } from '../../engine/budget/budget-calendar.ts';
import { applyCapOverrides } from '../../engine/budget/budget-ledger.ts';
import type { BudgetLedgerRepository } from '../../storage/index.ts';

/** One day's spend from the ledger (real spend is what the daily cap counts; scripted runs apart). */
export interface DaySpend {
  /** `YYYY-MM-DD` in the budget's time zone. */
  day: string;
  spentUSD: number;
  scriptedUSD: number;
  runs: number;
}

export interface DailySpendReport {
  timeZone: string;
  /** The daily cap in force (config with `flotilla budget set` on top); null without one. */
  dailyCapUSD: number | null;
  /** Oldest first, ending with today; days without runs are there with 0. */
  days: DaySpend[];
}

const DAY_MS = 86_400_000;

/**
 * The last `count` days' spend (the web dashboard's chart), from the same ledger totals as `flotilla budget`.
 * Days are the budget's time zone's: stepping back from `now` a day at a time and keeping each new key, so a
 * 23- or 25-hour day neither repeats nor drops one.
 */
export function buildDailySpend(
  config: FlotillaConfig,
  ledger: BudgetLedgerRepository,
  now: number,
  count: number,
): DailySpendReport {
  const { timeZone } = config.budgets;
  const keys: string[] = [];
  for (let at = now; keys.length < count; at -= DAY_MS / 2) {
    const { day } = periodKeysOf(at, timeZone);
    if (keys.at(-1) !== day) keys.push(day);
  }
  const { dailyUsd } = applyCapOverrides(buildBudgetCaps(config.budgets), ledger.capOverrides());
  return {
    timeZone,
    dailyCapUSD: dailyUsd,
    days: keys.reverse().map((day) => {
      const totals = ledger.totals({ day });
      return { day, spentUSD: totals.costUSD, scriptedUSD: totals.scriptedCostUSD, runs: totals.runs };
    }),
  };
}
