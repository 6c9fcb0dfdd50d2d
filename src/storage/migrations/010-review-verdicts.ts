import type { Migration } from './migration.ts';

/**
 * A review replaced by a later one is `DISMISSED` (as on GitHub), which hid what it said: "changes requested"
 * read as DISMISSED in `work show`, the demo summary and the dashboard (issue 31). `verdict` keeps the state a
 * review was posted with. Rows from before keep their state as the verdict, but a dismissed one's is lost.
 */
export const reviewVerdictsMigration: Migration = {
  version: 10,
  name: 'review verdicts',
  up(db) {
    db.exec(`
      ALTER TABLE reviews ADD COLUMN verdict TEXT
        CHECK (verdict IS NULL OR verdict IN ('APPROVED', 'CHANGES_REQUESTED', 'COMMENTED'));
      UPDATE reviews SET verdict = state WHERE state != 'DISMISSED';
    `);
  },
};
