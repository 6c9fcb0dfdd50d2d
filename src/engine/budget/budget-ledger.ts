import type { AgentRole, BudgetCaps } from '../../domain/index.ts';

/** The caps `flotilla budget set` can change at runtime (null: no cap). */
export type BudgetCapName = 'perRunUsd' | 'perItemUsd' | 'dailyUsd' | 'monthlyUsd';
export type BudgetCapOverrides = Partial<Record<BudgetCapName, number | null>>;

/** Which recorded spend to sum: one day or month (keys in the budget's time zone) or one work item. */
export interface SpendFilter {
  /** `YYYY-MM-DD`. */
  day?: string;
  /** `YYYY-MM`. */
  month?: string;
  workItemID?: string;
}

/**
 * What the budget reads from durable storage (the ledger in SQLite, written by persistence as runs report
 * usage and end). The engine never imports storage: the composition root passes an implementation in.
 */
export interface BudgetLedger {
  /**
   * The recorded cost (USD) of every run matching the filter, leaving out `excludeSessionIDs` (runs of this
   * process, which the budget counts from their live usage instead).
   */
  spentUSD(filter: SpendFilter, excludeSessionIDs: readonly string[]): number;
  /** The costs of the role's most recent ended runs that reported one, newest first, without `exclude…`. */
  recentRunCosts(role: AgentRole, limit: number, excludeSessionIDs: readonly string[]): number[];
  /** Caps set at runtime (`flotilla budget set`), read on every check so a running engine picks them up. */
  capOverrides(): BudgetCapOverrides;
}

/** The caps in force: the configured ones with the runtime overrides on top. */
export function applyCapOverrides(caps: BudgetCaps, overrides: BudgetCapOverrides): BudgetCaps {
  const pick = (name: BudgetCapName) => (name in overrides ? (overrides[name] ?? null) : caps[name]);
  return {
    perRunUsd: pick('perRunUsd'),
    // A runtime per-run cap replaces the per-role ones: it is the number the user just chose.
    perRole: 'perRunUsd' in overrides ? {} : caps.perRole,
    perItemUsd: pick('perItemUsd'),
    dailyUsd: pick('dailyUsd'),
    monthlyUsd: pick('monthlyUsd'),
  };
}
