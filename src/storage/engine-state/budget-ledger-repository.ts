import type { Database } from 'better-sqlite3';
import { type AgentRole, type BudgetScope, SCRIPTED_RUNTIME } from '../../domain/index.ts';
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

/** One ledger row per session: a later write fills in what it knows and keeps what it does not (NULL). */
const UPSERT_LEDGER_ENTRY = `
    INSERT INTO budget_ledger (
      session_id, work_item_id, role, runtime, model, account, day, month, cost_usd, input_tokens,
      output_tokens, ended, budget_stop, requested_at, updated_at
    ) VALUES (
      @session_id, @work_item_id, @role, @runtime, @model, @account, @day, @month, @cost_usd, @input_tokens,
      @output_tokens, @ended, @budget_stop, @requested_at, @updated_at
    )
    ON CONFLICT (session_id) DO UPDATE SET
      work_item_id = excluded.work_item_id, role = excluded.role,
      runtime = COALESCE(excluded.runtime, runtime), model = COALESCE(excluded.model, model),
      account = COALESCE(excluded.account, account),
      cost_usd = COALESCE(excluded.cost_usd, cost_usd),
      input_tokens = COALESCE(excluded.input_tokens, input_tokens),
      output_tokens = COALESCE(excluded.output_tokens, output_tokens),
      ended = excluded.ended, budget_stop = COALESCE(excluded.budget_stop, budget_stop),
      updated_at = excluded.updated_at
  `;

export function createBudgetLedgerRepository(db: Database): BudgetLedgerRepository {
  const upsert = db.prepare(UPSERT_LEDGER_ENTRY);
  const selectOne = db.prepare<[string], LedgerRow>('SELECT * FROM budget_ledger WHERE session_id = ?');
  // Scripted runs' costs are made up by the scripted model server: no cap counts them (runs-scripted.ts).
  const real = `(runtime IS NULL OR runtime != '${SCRIPTED_RUNTIME}')`;
  // The exclusion list is a JSON array: one statement, whatever its length.
  const sumWhere = (where: string) =>
    db.prepare<unknown[], { total: number }>(
      `SELECT COALESCE(SUM(cost_usd), 0) AS total FROM budget_ledger
       WHERE ${where} AND ${real} AND session_id NOT IN (SELECT value FROM json_each(?))`,
    );
  const sumByDay = sumWhere('day = ?');
  const sumByMonth = sumWhere('month = ?');
  const sumByItem = sumWhere('work_item_id = ?');
  const sumAll = sumWhere('1 = 1');
  const selectRecentCosts = db.prepare<[string, string, number], { cost_usd: number }>(
    `SELECT cost_usd FROM budget_ledger WHERE role = ? AND ended = 1 AND cost_usd IS NOT NULL AND ${real}
     AND session_id NOT IN (SELECT value FROM json_each(?))
     ORDER BY requested_at DESC, rowid DESC LIMIT ?`,
  );
  const selectByItem = db.prepare<[number], { work_item_id: string; cost_usd: number; runs: number }>(
    `SELECT work_item_id, COALESCE(SUM(cost_usd), 0) AS cost_usd, COUNT(*) AS runs FROM budget_ledger
     WHERE work_item_id IS NOT NULL AND ${real} GROUP BY work_item_id ORDER BY cost_usd DESC LIMIT ?`,
  );
  const totalsWhere = (where: string) =>
    db.prepare<unknown[], { cost: number; runs: number; scripted: number }>(
      `SELECT COALESCE(SUM(CASE WHEN ${real} THEN cost_usd END), 0) AS cost, COUNT(*) AS runs,
       COALESCE(SUM(CASE WHEN ${real} THEN NULL ELSE cost_usd END), 0) AS scripted
       FROM budget_ledger WHERE ${where}`,
    );
  const totalsByDay = totalsWhere('day = ?');
  const totalsByMonth = totalsWhere('month = ?');
  const totalsAll = totalsWhere('1 = 1');
  const selectModels = db.prepare<[], { session_id: string; model: string }>(
    'SELECT session_id, model FROM budget_ledger WHERE model IS NOT NULL',
  );
  const selectOverrides = db.prepare<[], { cap: BudgetCapName; value_usd: number | null }>(
    'SELECT cap, value_usd FROM budget_overrides',
  );
  const putOverride = db.prepare(
    `INSERT INTO budget_overrides (cap, value_usd, set_at) VALUES (?, ?, ?)
     ON CONFLICT (cap) DO UPDATE SET value_usd = excluded.value_usd, set_at = excluded.set_at`,
  );
  const deleteOverride = db.prepare('DELETE FROM budget_overrides WHERE cap = ?');

  return {
    record(entry) {
      upsert.run({
        session_id: entry.sessionID,
        work_item_id: entry.workItemID,
        role: entry.role,
        runtime: entry.runtime,
        model: entry.model,
        account: entry.account,
        day: entry.day,
        month: entry.month,
        cost_usd: entry.costUSD,
        input_tokens: entry.inputTokens,
        output_tokens: entry.outputTokens,
        ended: entry.ended ? 1 : 0,
        budget_stop: entry.budgetStop,
        requested_at: entry.requestedAt,
        updated_at: entry.updatedAt,
      });
    },
    modelsBySession() {
      return new Map(selectModels.all().map((row) => [row.session_id, row.model]));
    },
    get(sessionID) {
      const row = selectOne.get(sessionID);
      return row === undefined ? null : fromRow(row);
    },
    spentUSD(filter, excludeSessionIDs) {
      const exclude = JSON.stringify(excludeSessionIDs);
      const sums: number[] = [];
      if (filter.day !== undefined) sums.push(sumByDay.get(filter.day, exclude)?.total ?? 0);
      if (filter.month !== undefined) sums.push(sumByMonth.get(filter.month, exclude)?.total ?? 0);
      if (filter.workItemID !== undefined) sums.push(sumByItem.get(filter.workItemID, exclude)?.total ?? 0);
      if (sums.length > 1)
        throw new StorageError('budget ledger: spend is summed by one of day, month or item');
      return sums[0] ?? sumAll.get(exclude)?.total ?? 0;
    },
    recentRunCosts(role, limit, excludeSessionIDs = []) {
      return selectRecentCosts.all(role, JSON.stringify(excludeSessionIDs), limit).map((row) => row.cost_usd);
    },
    spendByWorkItem(limit) {
      return selectByItem
        .all(limit)
        .map((row) => ({ workItemID: row.work_item_id, costUSD: row.cost_usd, runs: row.runs }));
    },
    totals(filter) {
      const row =
        filter.day !== undefined
          ? totalsByDay.get(filter.day)
          : filter.month !== undefined
            ? totalsByMonth.get(filter.month)
            : totalsAll.get();
      return { costUSD: row?.cost ?? 0, runs: row?.runs ?? 0, scriptedCostUSD: row?.scripted ?? 0 };
    },
    capOverrides() {
      return Object.fromEntries(selectOverrides.all().map((row) => [row.cap, row.value_usd]));
    },
    setCapOverride(cap, value, at) {
      putOverride.run(cap, value, at);
    },
    clearCapOverride(cap) {
      deleteOverride.run(cap);
    },
  };
}
