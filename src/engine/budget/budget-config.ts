import type { BudgetCaps } from '../../domain/index.ts';
import type { BudgetLedger } from './budget-ledger.ts';

/** The budget part of the engine's configuration (`budgets` in flotilla.config.json). */
export interface BudgetConfig {
  caps: BudgetCaps;
  /** IANA time zone of the day and month caps; default UTC. */
  timeZone?: string;
  /** The least a run is estimated to cost before it starts (USD). */
  estimateFloorUsd?: number;
  /** How many of a role's recent runs the estimate looks at; default 20. */
  estimateWindow?: number;
  /** Milliseconds between re-checks of a paused budget (a cap raised with `flotilla budget set`); default 15 s. */
  recheckMs?: number;
  ledger: BudgetLedger;
}
