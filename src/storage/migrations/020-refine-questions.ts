import type { Migration } from './migration.ts';

/**
 * A refinement or investigation that asks waits for the answers (issue #29): a waiting implementor's mode
 * (`investigate`, `refine`; no row: implement) in a table of its own beside `waiting_sessions`, so its resume
 * runs in that mode; and a refined body version keeps the refine run given it (NULL for a version an applied
 * refinement wrote), so a run the control plane's stop interrupted gives its version back.
 */
export const refineQuestionsMigration: Migration = {
  version: 20,
  name: 'refine questions',
  up(db) {
    db.exec(`
      CREATE TABLE waiting_session_modes (
        work_item_id TEXT PRIMARY KEY,
        mode TEXT NOT NULL CHECK (mode IN ('investigate', 'refine'))
      );
      ALTER TABLE refined_bodies ADD COLUMN session_id TEXT;
    `);
  },
};
