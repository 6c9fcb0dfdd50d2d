import type { Migration } from './migration.ts';

/**
 * The budget ledger: one row per agent run with its cost and tokens by work item, role, runtime, model,
 * account (filled in by the accounts work; NULL until then) and the day and month it was requested in (in
 * the budget's time zone). Rows are written as a run reports usage and when it ends, so a run killed
 * mid-way keeps what it had spent. `budget_overrides` holds the caps `flotilla budget set` changed at
 * runtime (value NULL: the cap is removed), read by a running engine on every check.
 */
export const budgetLedgerMigration: Migration = {
  version: 6,
  name: 'budget ledger',
  up(db) {
    db.exec(`
      CREATE TABLE budget_ledger (
        session_id TEXT PRIMARY KEY,
        work_item_id TEXT,
        role TEXT NOT NULL CHECK (role IN ('planner', 'implementor', 'reviewer')),
        runtime TEXT,
        model TEXT,
        account TEXT,
        day TEXT NOT NULL,
        month TEXT NOT NULL,
        cost_usd REAL,
        input_tokens INTEGER,
        output_tokens INTEGER,
        ended INTEGER NOT NULL DEFAULT 0 CHECK (ended IN (0, 1)),
        budget_stop TEXT CHECK (budget_stop IN ('run', 'item', 'day', 'month')),
        requested_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX budget_ledger_by_day ON budget_ledger (day);
      CREATE INDEX budget_ledger_by_month ON budget_ledger (month);
      CREATE INDEX budget_ledger_by_work_item ON budget_ledger (work_item_id);
      CREATE INDEX budget_ledger_by_role ON budget_ledger (role, requested_at DESC);
      CREATE TABLE budget_overrides (
        cap TEXT PRIMARY KEY CHECK (cap IN ('perRunUsd', 'perItemUsd', 'dailyUsd', 'monthlyUsd')),
        value_usd REAL,
        set_at INTEGER NOT NULL
      );
      -- Runs recorded before the ledger existed, by their UTC day.
      INSERT INTO budget_ledger (
        session_id, work_item_id, role, runtime, day, month, cost_usd, input_tokens, output_tokens, ended,
        requested_at, updated_at
      )
      SELECT
        session_id, work_item_id, role, runtime,
        strftime('%Y-%m-%d', requested_at / 1000, 'unixepoch'), strftime('%Y-%m', requested_at / 1000, 'unixepoch'),
        cost_usd, input_tokens, output_tokens, status NOT IN ('requested', 'running'),
        requested_at, COALESCE(ended_at, requested_at)
      FROM agent_runs;
    `);
  },
};
