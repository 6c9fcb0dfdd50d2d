import type { Migration } from './migration.ts';

/**
 * Agents that stop with questions (issue 13): the sessions waiting for a human's answers, with what resuming
 * them after a restart needs (the runtime, its own session id, the kept worktree and state directory, the
 * questions, when they were asked), and each run's session number (1, 2… per item and role) and whether it
 * ended by asking.
 */
export const waitingSessionsMigration: Migration = {
  version: 5,
  name: 'waiting sessions',
  up(db) {
    db.exec(`
      CREATE TABLE waiting_sessions (
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
        asked_at INTEGER NOT NULL
      );
      ALTER TABLE agent_runs ADD COLUMN session_number INTEGER;
      ALTER TABLE agent_runs ADD COLUMN asked_questions INTEGER NOT NULL DEFAULT 0 CHECK (asked_questions IN (0, 1));
    `);
  },
};
