import type { AgentRole } from './agent-result.ts';

/**
 * What a budget cap covers: one run, one work item across all its runs (reworks included), or the
 * repository's spend in the current day or month (in the configured time zone).
 */
export type BudgetScope = 'run' | 'item' | 'day' | 'month';

/** The repository-wide periods whose cap pauses dispatch until the next period (or a raised cap). */
export type BudgetPeriod = 'day' | 'month';

/** Caps in USD; null means no cap. `perRole` overrides `perRunUsd` for that role's runs. */
export interface BudgetCaps {
  perRunUsd: number | null;
  perRole: Partial<Record<AgentRole, number>>;
  perItemUsd: number | null;
  dailyUsd: number | null;
  monthlyUsd: number | null;
}

export const NO_BUDGET_CAPS: BudgetCaps = {
  perRunUsd: null,
  perRole: {},
  perItemUsd: null,
  dailyUsd: null,
  monthlyUsd: null,
};

/** Which cap stopped a run, and the spend it measured against it. */
export interface BudgetStop {
  scope: BudgetScope;
  spentUSD: number;
  capUSD: number;
}

/** Dispatch is paused because the day's or month's spend reached its cap. */
export interface BudgetPause {
  period: BudgetPeriod;
  spentUSD: number;
  capUSD: number;
  /** Epoch milliseconds: the start of the next period, when dispatch resumes by itself. */
  resumesAt: number;
  /** Epoch milliseconds when the pause began. */
  since: number;
}

/** The per-run cap for a role: its `perRole` override, else `perRunUsd`, else none. */
export function perRunCapFor(caps: BudgetCaps, role: AgentRole): number | null {
  return caps.perRole[role] ?? caps.perRunUsd;
}

/** A run stopped by a budget says which cap stopped it in its error, after this prefix. */
export const BUDGET_FAILURE_PREFIX = 'budget:';

export function formatUSD(amount: number): string {
  return `$${amount.toFixed(amount !== 0 && Math.abs(amount) < 0.01 ? 4 : 2)}`;
}

/**
 * The banner (and progress line) of a paused dispatch: `dispatch paused: day's budget $20.40 of $20.00 spent,
 * resumes 2026-11-24 00:00 UTC (flotilla budget set daily <usd>)`.
 */
export function describeBudgetPause(pause: BudgetPause): string {
  const name = pause.period === 'day' ? 'daily' : 'monthly';
  const resumes = new Date(pause.resumesAt).toISOString().slice(0, 16).replace('T', ' ');
  return (
    `dispatch paused: ${pause.period}'s budget ${formatUSD(pause.spentUSD)} of ${formatUSD(pause.capUSD)} spent, ` +
    `resumes ${resumes} UTC (flotilla budget set ${name} <usd>)`
  );
}
