import type { Migration } from './migration.ts';

/**
 * A planner's questions wait too (issue 13): its kept session, keyed by the `questions` work item opened for
 * them, with the specs it was given (`spec_shas`, JSON path → blob SHA), which its resume plans and records as
 * planned. A table of its own rather than a rebuild of 005's `waiting_sessions` (whose role CHECK excludes
 * the planner): migrations apply by set, so this one must not depend on 005's table being there yet.
 */
export const plannerWaitingSessionsMigration: Migration = {
  version: 9,
  name: 'planner waiting sessions',
  up(db) {
    db.exec(`
      CREATE TABLE planner_waiting_sessions (
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
        asked_at INTEGER NOT NULL,
        spec_shas TEXT NOT NULL
      );
    `);
  },
};
