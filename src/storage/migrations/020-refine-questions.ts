import type { Migration } from './migration.ts';

/**
 * A refinement or investigation that asks waits for the answers (issue #29): a waiting implementor keeps the
 * mode it asked in (`investigate`, `refine`; NULL: implement), so its resume runs in that mode; a refined
 * body version keeps the refine run that was given it while that run goes on (NULL once it ended or for a
 * version an applied refinement wrote), so a run the control plane's stop interrupted does not count.
 */
export const refineQuestionsMigration: Migration = {
  version: 20,
  name: 'refine questions',
  up(db) {
    db.exec(`
      ALTER TABLE waiting_sessions ADD COLUMN mode TEXT CHECK (mode IN ('investigate', 'refine'));
      ALTER TABLE refined_bodies ADD COLUMN session_id TEXT;
    `);
  },
};
