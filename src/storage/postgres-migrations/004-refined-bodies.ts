import type { PostgresMigration } from './postgres-migration.ts';

/** Automatic refinement's body versions on PostgreSQL (cluster mode), as SQLite migration 018 made them. */
export const refinedBodiesPostgresMigration: PostgresMigration = {
  version: 4,
  name: 'refined bodies',
  statements: [
    `CREATE TABLE refined_bodies (
      work_item_id TEXT NOT NULL,
      body_hash TEXT NOT NULL,
      refined_at BIGINT NOT NULL,
      PRIMARY KEY (work_item_id, body_hash)
    )`,
  ],
};
