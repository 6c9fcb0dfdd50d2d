import type { Migration } from './migration.ts';

/** Durable engine state: agent run history, planned spec SHAs, recorded errors. */
export const engineStateMigration: Migration = {
  version: 1,
  name: 'engine state',
  up(db) {
    db.exec(`
      CREATE TABLE agent_runs (
        session_id TEXT PRIMARY KEY,
        role TEXT NOT NULL CHECK (role IN ('planner', 'implementor', 'reviewer')),
        status TEXT NOT NULL
          CHECK (status IN ('requested', 'running', 'completed', 'failed', 'timed-out', 'cancelled')),
        work_item_id TEXT,
        spec_paths TEXT NOT NULL DEFAULT '[]',
        spec_shas TEXT NOT NULL DEFAULT '{}',
        branch_name TEXT,
        revision_id TEXT,
        requested_at INTEGER NOT NULL,
        ended_at INTEGER,
        failure_reason TEXT CHECK (failure_reason IN ('error', 'timeout', 'cancelled')),
        error TEXT,
        log_file_path TEXT,
        cost_usd REAL,
        input_tokens INTEGER,
        output_tokens INTEGER,
        turns INTEGER,
        cancel_requested_by TEXT CHECK (cancel_requested_by IN ('user', 'shutdown'))
      );
      CREATE INDEX agent_runs_by_requested_at ON agent_runs (requested_at DESC);
      CREATE INDEX agent_runs_by_work_item ON agent_runs (work_item_id, requested_at DESC);
      CREATE INDEX agent_runs_active ON agent_runs (status) WHERE status IN ('requested', 'running');

      CREATE TABLE planned_specs (
        spec_path TEXT PRIMARY KEY,
        blob_sha TEXT NOT NULL,
        planned_at INTEGER NOT NULL
      );

      CREATE TABLE engine_errors (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        source TEXT NOT NULL,
        message TEXT NOT NULL,
        event_type TEXT,
        event_json TEXT
      );
      CREATE INDEX engine_errors_by_at ON engine_errors (at DESC);
    `);
  },
};
