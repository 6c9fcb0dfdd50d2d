import type { Migration } from './migration.ts';

/**
 * Repository memory and agent notes (issue #28 §2): `memories` are kept per repository (this database is
 * the repository's), one per topic (case-insensitive), and shown to every later agent; `agent_notes` hold
 * the decisions and non-blocking questions agents recorded on their work items (null: a planner's).
 */
export const repositoryMemoryMigration: Migration = {
  version: 13,
  name: 'repository memory',
  up(db) {
    db.exec(`
      CREATE TABLE memories (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        topic TEXT NOT NULL,
        text TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('planner', 'implementor', 'reviewer', 'human')),
        session_id TEXT,
        work_item_id TEXT,
        runtime TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX memories_by_topic ON memories (topic COLLATE NOCASE);
      CREATE INDEX memories_by_update ON memories (updated_at);
      CREATE TABLE agent_notes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('decision', 'question')),
        work_item_id TEXT,
        session_id TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('planner', 'implementor', 'reviewer')),
        runtime TEXT,
        text TEXT NOT NULL,
        why TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX agent_notes_by_item ON agent_notes (work_item_id, created_at);
      CREATE INDEX agent_notes_by_kind ON agent_notes (kind, created_at);
    `);
  },
};
