import type { Migration } from './migration.ts';

/**
 * Agent modes (issue #29): each run's mode (`investigate`, `refine`; null for the roles' own work) and the
 * model `models.implementor` chose for it, with why; proposals of investigations and refinements, with the
 * item they are about and their report (JSON). SQLite cannot alter a CHECK constraint, so `proposals` is
 * rebuilt with the wider `kind` check, its rows copied.
 */
export const agentModesMigration: Migration = {
  version: 15,
  name: 'agent modes',
  up(db) {
    db.exec(`
      ALTER TABLE agent_runs ADD COLUMN mode TEXT;
      ALTER TABLE agent_runs ADD COLUMN model TEXT;
      ALTER TABLE agent_runs ADD COLUMN model_reason TEXT;
      CREATE TABLE proposals_widened (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('plan', 'investigation', 'refinement')),
        status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected', 'stale')),
        session_id TEXT NOT NULL,
        spec_shas TEXT NOT NULL,
        base_planned_shas TEXT NOT NULL,
        result TEXT NOT NULL,
        revises TEXT,
        created_at INTEGER NOT NULL,
        decided_at INTEGER,
        decided_by TEXT,
        reason TEXT,
        subject_id TEXT,
        report TEXT
      );
      INSERT INTO proposals_widened (id, kind, status, session_id, spec_shas, base_planned_shas, result, revises,
        created_at, decided_at, decided_by, reason)
        SELECT id, kind, status, session_id, spec_shas, base_planned_shas, result, revises, created_at,
          decided_at, decided_by, reason FROM proposals;
      DROP TABLE proposals;
      ALTER TABLE proposals_widened RENAME TO proposals;
      CREATE INDEX proposals_by_status ON proposals (status, created_at);
    `);
  },
};
