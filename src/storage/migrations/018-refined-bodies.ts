import type { Migration } from './migration.ts';

/**
 * Automatic refinement (issue #29): the versions of each work item's body (`WorkItem.bodyHash`) a refine
 * run was started on or an applied refinement wrote, so a restart (or `kill -9`) never refines them again.
 */
export const refinedBodiesMigration: Migration = {
  version: 18,
  name: 'refined bodies',
  up(db) {
    db.exec(`
      CREATE TABLE refined_bodies (
        work_item_id TEXT NOT NULL,
        body_hash TEXT NOT NULL,
        refined_at INTEGER NOT NULL,
        PRIMARY KEY (work_item_id, body_hash)
      )
    `);
  },
};
