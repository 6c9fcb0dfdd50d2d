import type { Migration } from './migration.ts';

/**
 * Lets the run history say `validation` (the implementor's work still failed the validation commands after
 * its last fix round) instead of folding it into `error`. SQLite cannot alter a CHECK constraint, so the
 * table is rebuilt with the same columns and indexes; existing rows are copied unchanged.
 */
export const validationFailureReasonMigration: Migration = {
  version: 4,
  name: 'validation failure reason',
  up(db) {
    db.exec(`
      CREATE TABLE agent_runs_v4 (
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
        failure_reason TEXT CHECK (failure_reason IN ('error', 'timeout', 'cancelled', 'validation')),
        error TEXT,
        log_file_path TEXT,
        cost_usd REAL,
        input_tokens INTEGER,
        output_tokens INTEGER,
        turns INTEGER,
        cancel_requested_by TEXT CHECK (cancel_requested_by IN ('user', 'shutdown')),
        runtime TEXT
      );
      INSERT INTO agent_runs_v4 (
        session_id, role, status, work_item_id, spec_paths, spec_shas, branch_name, revision_id, requested_at,
        ended_at, failure_reason, error, log_file_path, cost_usd, input_tokens, output_tokens, turns,
        cancel_requested_by, runtime
      )
      SELECT
        session_id, role, status, work_item_id, spec_paths, spec_shas, branch_name, revision_id, requested_at,
        ended_at, failure_reason, error, log_file_path, cost_usd, input_tokens, output_tokens, turns,
        cancel_requested_by, runtime
      FROM agent_runs;
      DROP TABLE agent_runs;
      ALTER TABLE agent_runs_v4 RENAME TO agent_runs;
      CREATE INDEX agent_runs_by_requested_at ON agent_runs (requested_at DESC);
      CREATE INDEX agent_runs_by_work_item ON agent_runs (work_item_id, requested_at DESC);
      CREATE INDEX agent_runs_active ON agent_runs (status) WHERE status IN ('requested', 'running');
    `);
  },
};
