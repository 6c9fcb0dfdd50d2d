import type { FlotillaConfig } from '../config/index.ts';
import type { BudgetCaps } from '../domain/index.ts';
import type { BudgetConfig } from '../engine/budget/budget-config.ts';
import type { BudgetLedger } from '../engine/budget/budget-ledger.ts';

/** The configured caps (`budgets` in flotilla.config.json) as the engine takes them; absent caps are null. */
export function buildBudgetCaps(budgets: FlotillaConfig['budgets']): BudgetCaps {
  const perRole: BudgetCaps['perRole'] = {};
  if (budgets.perRole.planner !== undefined) perRole.planner = budgets.perRole.planner;
  if (budgets.perRole.implementor !== undefined) perRole.implementor = budgets.perRole.implementor;
  if (budgets.perRole.reviewer !== undefined) perRole.reviewer = budgets.perRole.reviewer;
  return {
    perRunUsd: budgets.perRunUsd ?? null,
    perRole,
    perItemUsd: budgets.perItemUsd ?? null,
    dailyUsd: budgets.dailyUsd ?? null,
    monthlyUsd: budgets.monthlyUsd ?? null,
  };
}

/**
 * The engine's budget: the configured caps, measured against the ledger. Always on, even with no cap
 * configured, so a cap set later with `flotilla budget set` reaches a running engine.
 */
export function buildEngineBudget(
  config: FlotillaConfig,
  ledger: BudgetLedger,
  options: { recheckMs?: number } = {},
): BudgetConfig {
  return {
    caps: buildBudgetCaps(config.budgets),
    timeZone: config.budgets.timeZone,
    estimateFloorUsd: config.budgets.estimateFloorUsd,
    ledger,
    ...(options.recheckMs !== undefined && { recheckMs: options.recheckMs }),
  };
}
