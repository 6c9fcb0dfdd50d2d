import type { PostgresMigration } from './postgres-migration.ts';

/**
 * The engine-state tables that live on PostgreSQL in cluster mode, as the SQLite migrations 001–017 left
 * them (same names, columns and checks): INTEGER epoch milliseconds are BIGINT, REAL is DOUBLE PRECISION.
 * `rowid` is a real column here (SQLite has it implicitly): the repositories order ties by it.
 */
export const engineStatePostgresMigration: PostgresMigration = {
  version: 1,
  name: 'engine state: runs, budget ledger, parkings, waiting sessions, planned specs',
  statements: [
    `CREATE TABLE agent_runs (
      rowid BIGSERIAL NOT NULL UNIQUE,
      session_id TEXT PRIMARY KEY,
      role TEXT NOT NULL CHECK (role IN ('planner', 'implementor', 'reviewer')),
      status TEXT NOT NULL
        CHECK (status IN ('requested', 'running', 'completed', 'failed', 'timed-out', 'cancelled')),
      work_item_id TEXT,
      spec_paths TEXT NOT NULL DEFAULT '[]',
      spec_shas TEXT NOT NULL DEFAULT '{}',
      branch_name TEXT,
      revision_id TEXT,
      requested_at BIGINT NOT NULL,
      ended_at BIGINT,
      failure_reason TEXT CHECK (failure_reason IN ('error', 'timeout', 'cancelled', 'validation', 'rate-limit',
        'overloaded', 'usage-limit', 'budget', 'unavailable', 'no-changes')),
      error TEXT,
      log_file_path TEXT,
      cost_usd DOUBLE PRECISION,
      input_tokens BIGINT,
      output_tokens BIGINT,
      turns BIGINT,
      cancel_requested_by TEXT CHECK (cancel_requested_by IN ('user', 'shutdown')),
      runtime TEXT,
      session_number INTEGER,
      asked_questions INTEGER NOT NULL DEFAULT 0 CHECK (asked_questions IN (0, 1)),
      account TEXT,
      mode TEXT,
      model TEXT,
      model_reason TEXT,
      estimated_files TEXT,
      changed_files TEXT
    )`,
    'CREATE INDEX agent_runs_by_requested_at ON agent_runs (requested_at DESC)',
    'CREATE INDEX agent_runs_by_work_item ON agent_runs (work_item_id, requested_at DESC)',
    "CREATE INDEX agent_runs_active ON agent_runs (status) WHERE status IN ('requested', 'running')",
    `CREATE TABLE budget_ledger (
      rowid BIGSERIAL NOT NULL UNIQUE,
      session_id TEXT PRIMARY KEY,
      work_item_id TEXT,
      role TEXT NOT NULL CHECK (role IN ('planner', 'implementor', 'reviewer')),
      runtime TEXT,
      model TEXT,
      account TEXT,
      day TEXT NOT NULL,
      month TEXT NOT NULL,
      cost_usd DOUBLE PRECISION,
      input_tokens BIGINT,
      output_tokens BIGINT,
      ended INTEGER NOT NULL DEFAULT 0 CHECK (ended IN (0, 1)),
      budget_stop TEXT CHECK (budget_stop IN ('run', 'item', 'day', 'month')),
      requested_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    'CREATE INDEX budget_ledger_by_day ON budget_ledger (day)',
    'CREATE INDEX budget_ledger_by_month ON budget_ledger (month)',
    'CREATE INDEX budget_ledger_by_work_item ON budget_ledger (work_item_id)',
    'CREATE INDEX budget_ledger_by_role ON budget_ledger (role, requested_at DESC)',
    `CREATE TABLE budget_overrides (
      cap TEXT PRIMARY KEY CHECK (cap IN ('perRunUsd', 'perItemUsd', 'dailyUsd', 'monthlyUsd')),
      value_usd DOUBLE PRECISION,
      set_at BIGINT NOT NULL
    )`,
    `CREATE TABLE runtime_parkings (
      key TEXT PRIMARY KEY,
      runtime TEXT NOT NULL,
      account TEXT,
      reason TEXT NOT NULL CHECK (reason IN ('rate-limit', 'overloaded', 'usage-limit')),
      until_at BIGINT NOT NULL,
      since_at BIGINT NOT NULL,
      hits INTEGER NOT NULL,
      message TEXT NOT NULL
    )`,
    `CREATE TABLE waiting_sessions (
      work_item_id TEXT PRIMARY KEY,
      role TEXT NOT NULL CHECK (role IN ('implementor', 'reviewer')),
      session_id TEXT NOT NULL,
      session_number INTEGER NOT NULL CHECK (session_number >= 1),
      revision_id TEXT,
      runtime TEXT NOT NULL,
      agent_session_id TEXT,
      worktree_branch TEXT,
      worktree_path TEXT,
      worktree_base_commit TEXT,
      state_dir TEXT,
      questions TEXT NOT NULL,
      asked_at BIGINT NOT NULL
    )`,
    `CREATE TABLE planner_waiting_sessions (
      work_item_id TEXT PRIMARY KEY,
      session_id TEXT NOT NULL,
      session_number INTEGER NOT NULL CHECK (session_number >= 1),
      runtime TEXT NOT NULL,
      agent_session_id TEXT,
      worktree_branch TEXT,
      worktree_path TEXT,
      worktree_base_commit TEXT,
      state_dir TEXT,
      questions TEXT NOT NULL,
      asked_at BIGINT NOT NULL,
      spec_shas TEXT NOT NULL
    )`,
    `CREATE TABLE planned_specs (
      spec_path TEXT PRIMARY KEY,
      blob_sha TEXT NOT NULL,
      planned_at BIGINT NOT NULL
    )`,
  ],
};
