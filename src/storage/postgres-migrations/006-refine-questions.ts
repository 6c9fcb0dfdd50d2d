import type { PostgresMigration } from './postgres-migration.ts';

/** A waiting implementor's mode and a refined body version's running refine, as SQLite migration 020 adds. */
export const refineQuestionsPostgresMigration: PostgresMigration = {
  version: 6,
  name: 'refine questions',
  statements: [
    `ALTER TABLE waiting_sessions ADD COLUMN mode TEXT CHECK (mode IN ('investigate', 'refine'))`,
    'ALTER TABLE refined_bodies ADD COLUMN session_id TEXT',
  ],
};
