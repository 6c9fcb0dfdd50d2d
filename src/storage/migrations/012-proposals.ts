import type { Migration } from './migration.ts';

/**
 * Proposals (issue #29 §2): a plan stored instead of applied while `approval.plans` is `required`, until a
 * human accepts or rejects it (or a spec change makes it stale). One row per proposal, keyed by its tracking
 * work item's id; the plan and the SHAs are JSON. Written in the same transaction as the event that changed
 * it, so a pending proposal survives a restart and `kill -9`.
 */
export const proposalsMigration: Migration = {
  version: 12,
  name: 'proposals',
  up(db) {
    db.exec(`
      CREATE TABLE proposals (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('plan')),
        status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected', 'stale')),
        session_id TEXT NOT NULL,
        spec_shas TEXT NOT NULL,
        base_planned_shas TEXT NOT NULL,
        result TEXT NOT NULL,
        revises TEXT,
        created_at INTEGER NOT NULL,
        decided_at INTEGER,
        decided_by TEXT,
        reason TEXT
      );
      CREATE INDEX proposals_by_status ON proposals (status, created_at);
    `);
  },
};
