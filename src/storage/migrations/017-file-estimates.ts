import type { Migration } from './migration.ts';

/**
 * Conflict-aware dispatch checks its guesses (issue #30 §4): an implementor run keeps the files the scheduler
 * expected it to change and the files its patch changed (JSON arrays; NULL: unknown), so `flotilla stats` can
 * say how often the estimate was right.
 */
export const fileEstimatesMigration: Migration = {
  version: 17,
  name: 'file estimates',
  up(db) {
    db.exec('ALTER TABLE agent_runs ADD COLUMN estimated_files TEXT');
    db.exec('ALTER TABLE agent_runs ADD COLUMN changed_files TEXT');
  },
};
