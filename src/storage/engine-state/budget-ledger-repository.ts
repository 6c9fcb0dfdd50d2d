import { type AgentRole, type BudgetScope, SCRIPTED_RUNTIME } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';
import { notIn, type SqlValue } from '../sql/sql-connection.ts';
import { StorageError } from '../storage-error.ts';

/** The caps `flotilla budget set` can change at runtime. */
export const BUDGET_CAP_NAMES = ['perRunUsd', 'perItemUsd', 'dailyUsd', 'monthlyUsd'] as const;
export type BudgetCapName = (typeof BUDGET_CAP_NAMES)[number];

/** One run's row in the ledger (migration 006). */
export interface LedgerEntry {
  sessionID: string;
  workItemID: string | null;
  role: AgentRole;
  runtime: string | null;
  model: string | null;
  account: string | null;
  /** `YYYY-MM-DD` / `YYYY-MM` the run was requested in, in the budget's time zone. */
  day: string;
  month: string;
  costUSD: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  ended: boolean;
  budgetStop: BudgetScope | null;
  requestedAt: number;
  updatedAt: number;
}

export interface SpendTotals {
  /** Real spend: what the caps count. */
  costUSD: number;
  /** Every run, scripted ones included. */
  runs: number;
  /** Scripted runs' made-up cost, never in `costUSD` nor counted against a cap. */
  scriptedCostUSD: number;
}

export interface BudgetLedgerRepository {
  /** Inserts or updates the run's row; a null model or account keeps the one already recorded. */
  record(entry: LedgerEntry): void;
  get(sessionID: string): LedgerEntry | null;
  /**
   * Summed cost of the matching runs, without `excludeSessionIDs` and without scripted runs (their costs are
   * made up and count against no cap).
   */
  spentUSD(
    filter: { day?: string; month?: string; workItemID?: string },
    excludeSessionIDs: readonly string[],
  ): number;
  /** Costs of the role's latest ended runs that reported one, newest first (scripted runs left out). */
  recentRunCosts(role: AgentRole, limit: number, excludeSessionIDs?: readonly string[]): number[];
  /** The model each run used, where the runtime reported one (for `flotilla stats`). */
  modelsBySession(): Map<string, string>;
  /** Real spend per work item (runs with one; scripted runs left out), highest first. */
  spendByWorkItem(limit: number): { workItemID: string; costUSD: number; runs: number }[];
  totals(filter: { day?: string; month?: string }): SpendTotals;
  capOverrides(): Partial<Record<BudgetCapName, number | null>>;
  /** `value` null removes the cap (until `clearCapOverride` returns it to the configured one). */
  setCapOverride(cap: BudgetCapName, value: number | null, at: number): void;
  clearCapOverride(cap: BudgetCapName): void;
}

interface LedgerRow {
  session_id: string;
  work_item_id: string | null;
  role: AgentRole;
  runtime: string | null;
  model: string | null;
  account: string | null;
  day: string;
  month: string;
  cost_usd: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  ended: number;
  budget_stop: BudgetScope | null;
  requested_at: number;
  updated_at: number;
}

function fromRow(row: LedgerRow): LedgerEntry {
  return {
    sessionID: row.session_id,
    workItemID: row.work_item_id,
    role: row.role,
    runtime: row.runtime,
    model: row.model,
    account: row.account,
    day: row.day,
    month: row.month,
    costUSD: row.cost_usd,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    ended: row.ended === 1,
    budgetStop: row.budget_stop,
    requestedAt: row.requested_at,
    updatedAt: row.updated_at,
  };
}

const LEDGER_COLUMNS = [
  'session_id',
  'work_item_id',
  'role',
  'runtime',
  'model',
  'account',
  'day',
  'month',
  'cost_usd',
  'input_tokens',
  'output_tokens',
  'ended',
  'budget_stop',
  'requested_at',
  'updated_at',
] as const;

/** One ledger row per session: a later write fills in what it knows and keeps what it does not (NULL). */
const UPSERT_LEDGER_ENTRY = `
    INSERT INTO budget_ledger (${LEDGER_COLUMNS.join(', ')})
    VALUES (${LEDGER_COLUMNS.map(() => '?').join(', ')})
    ON CONFLICT (session_id) DO UPDATE SET
      work_item_id = excluded.work_item_id, role = excluded.role,
      runtime = COALESCE(excluded.runtime, budget_ledger.runtime),
      model = COALESCE(excluded.model, budget_ledger.model),
      account = COALESCE(excluded.account, budget_ledger.account),
      cost_usd = COALESCE(excluded.cost_usd, budget_ledger.cost_usd),
      input_tokens = COALESCE(excluded.input_tokens, budget_ledger.input_tokens),
      output_tokens = COALESCE(excluded.output_tokens, budget_ledger.output_tokens),
      ended = excluded.ended, budget_stop = COALESCE(excluded.budget_stop, budget_ledger.budget_stop),
      updated_at = excluded.updated_at
  `;

// Scripted runs' costs are made up by the scripted model server: no cap counts them (runs-scripted.ts).
const REAL = `(runtime IS NULL OR runtime != '${SCRIPTED_RUNTIME}')`;

function toRow(entry: LedgerEntry): SqlValue[] {
  return [
    entry.sessionID,
    entry.workItemID,
    entry.role,
    entry.runtime,
    entry.model,
    entry.account,
    entry.day,
    entry.month,
    entry.costUSD,
    entry.inputTokens,
    entry.outputTokens,
    entry.ended ? 1 : 0,
    entry.budgetStop,
    entry.requestedAt,
    entry.updatedAt,
  ];
}

/** The budget ledger and cap overrides over the SQL port: SQLite on one machine, PostgreSQL in cluster mode. */
export function createBudgetLedgerRepository(target: SqlTarget): BudgetLedgerRepository {
  const sql = asSqlConnection(target);
  /** Real spend where `where` holds (one `?`, or none when `value` is undefined), but the excluded sessions. */
  const sumWhere = (where: string, value: string | undefined, exclude: readonly string[]): number => {
    const excluded = notIn('session_id', exclude);
    const params = [...(value === undefined ? [] : [value]), ...excluded.params];
    return (
      sql.get<{ total: number }>(
        `SELECT COALESCE(SUM(cost_usd), 0) AS total FROM budget_ledger WHERE ${where} AND ${REAL} AND ${excluded.sql}`,
        params,
      )?.total ?? 0
    );
  };
  const totalsWhere = (where: string, params: SqlValue[]) =>
    sql.get<{ cost: number; runs: number; scripted: number }>(
      `SELECT COALESCE(SUM(CASE WHEN ${REAL} THEN cost_usd END), 0) AS cost, COUNT(*) AS runs,
       COALESCE(SUM(CASE WHEN ${REAL} THEN NULL ELSE cost_usd END), 0) AS scripted
       FROM budget_ledger WHERE ${where}`,
      params,
    );

  return {
    record(entry) {
      sql.run(UPSERT_LEDGER_ENTRY, toRow(entry));
    },
    modelsBySession() {
      const rows = sql.all<{ session_id: string; model: string }>(
        'SELECT session_id, model FROM budget_ledger WHERE model IS NOT NULL',
      );
      return new Map(rows.map((row) => [row.session_id, row.model]));
    },
    get(sessionID) {
      const row = sql.get<LedgerRow>('SELECT * FROM budget_ledger WHERE session_id = ?', [sessionID]);
      return row === undefined ? null : fromRow(row);
    },
    spentUSD(filter, excludeSessionIDs) {
      const sums: number[] = [];
      if (filter.day !== undefined) sums.push(sumWhere('day = ?', filter.day, excludeSessionIDs));
      if (filter.month !== undefined) sums.push(sumWhere('month = ?', filter.month, excludeSessionIDs));
      if (filter.workItemID !== undefined)
        sums.push(sumWhere('work_item_id = ?', filter.workItemID, excludeSessionIDs));
      if (sums.length > 1)
        throw new StorageError('budget ledger: spend is summed by one of day, month or item');
      return sums[0] ?? sumWhere('1 = 1', undefined, excludeSessionIDs);
    },
    recentRunCosts(role, limit, excludeSessionIDs = []) {
      const excluded = notIn('session_id', excludeSessionIDs);
      return sql
        .all<{ cost_usd: number }>(
          `SELECT cost_usd FROM budget_ledger WHERE role = ? AND ended = 1 AND cost_usd IS NOT NULL AND ${REAL}
           AND ${excluded.sql} ORDER BY requested_at DESC, rowid DESC LIMIT ?`,
          [role, ...excluded.params, limit],
        )
        .map((row) => row.cost_usd);
    },
    spendByWorkItem(limit) {
      return sql
        .all<{ work_item_id: string; cost_usd: number; runs: number }>(
          `SELECT work_item_id, COALESCE(SUM(cost_usd), 0) AS cost_usd, COUNT(*) AS runs FROM budget_ledger
           WHERE work_item_id IS NOT NULL AND ${REAL} GROUP BY work_item_id ORDER BY cost_usd DESC LIMIT ?`,
          [limit],
        )
        .map((row) => ({ workItemID: row.work_item_id, costUSD: row.cost_usd, runs: row.runs }));
    },
    totals(filter) {
      const row =
        filter.day !== undefined
          ? totalsWhere('day = ?', [filter.day])
          : filter.month !== undefined
            ? totalsWhere('month = ?', [filter.month])
            : totalsWhere('1 = 1', []);
      return { costUSD: row?.cost ?? 0, runs: row?.runs ?? 0, scriptedCostUSD: row?.scripted ?? 0 };
    },
    capOverrides() {
      const rows = sql.all<{ cap: BudgetCapName; value_usd: number | null }>(
        'SELECT cap, value_usd FROM budget_overrides',
      );
      return Object.fromEntries(rows.map((row) => [row.cap, row.value_usd]));
    },
    setCapOverride(cap, value, at) {
      sql.run(
        `INSERT INTO budget_overrides (cap, value_usd, set_at) VALUES (?, ?, ?)
         ON CONFLICT (cap) DO UPDATE SET value_usd = excluded.value_usd, set_at = excluded.set_at`,
        [cap, value, at],
      );
    },
    clearCapOverride(cap) {
      sql.run('DELETE FROM budget_overrides WHERE cap = ?', [cap]);
    },
  };
}
