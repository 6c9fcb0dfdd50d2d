import type { PostgresMigration } from './postgres-migration.ts';

/** A waiting implementor's mode and a refined body version's refine run, as SQLite migration 020 adds them. */
export const refineQuestionsPostgresMigration: PostgresMigration = {
  version: 6,
  name: 'refine questions',
  statements: [
    `CREATE TABLE waiting_session_modes (
      work_item_id TEXT PRIMARY KEY,
      mode TEXT NOT NULL CHECK (mode IN ('investigate', 'refine'))
    )`,
    'ALTER TABLE refined_bodies ADD COLUMN session_id TEXT',
  ],
};
