import type { Migration } from './migration.ts';

/** The tables, indexes and sequences, run as one script. */
const LOCAL_TRACKER_SCHEMA = `
      CREATE TABLE tracker_ids (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('work-item', 'revision'))
      );

      CREATE TABLE work_items (
        id INTEGER PRIMARY KEY REFERENCES tracker_ids (id),
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'closed')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );

      CREATE TABLE work_item_labels (
        work_item_id INTEGER NOT NULL REFERENCES work_items (id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (work_item_id, label)
      );

      CREATE TABLE work_item_blockers (
        work_item_id INTEGER NOT NULL REFERENCES work_items (id) ON DELETE CASCADE,
        blocker_id INTEGER NOT NULL REFERENCES work_items (id),
        position INTEGER NOT NULL,
        PRIMARY KEY (work_item_id, blocker_id),
        CHECK (work_item_id <> blocker_id)
      );
      CREATE INDEX work_item_blockers_by_blocker ON work_item_blockers (blocker_id);

      CREATE TABLE work_item_comments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        work_item_id INTEGER NOT NULL REFERENCES work_items (id) ON DELETE CASCADE,
        author TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at TEXT NOT NULL
      );

      CREATE TABLE revisions (
        id INTEGER PRIMARY KEY REFERENCES tracker_ids (id),
        work_item_id INTEGER REFERENCES work_items (id),
        branch_name TEXT NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        author TEXT NOT NULL,
        is_draft INTEGER NOT NULL DEFAULT 0 CHECK (is_draft IN (0, 1)),
        head_sha TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('open', 'closed', 'merged')),
        review_id INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- One open revision per branch: a re-push updates it instead of opening a second one.
      CREATE UNIQUE INDEX revisions_open_branch ON revisions (branch_name) WHERE state = 'open';
      CREATE INDEX revisions_by_work_item ON revisions (work_item_id, state);

      CREATE TABLE revision_pushes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        revision_id INTEGER NOT NULL REFERENCES revisions (id) ON DELETE CASCADE,
        head_sha TEXT NOT NULL,
        patch TEXT NOT NULL,
        pushed_at TEXT NOT NULL
      );
      CREATE INDEX revision_pushes_by_revision ON revision_pushes (revision_id, id);

      -- Checks results per head SHA: a late result for an older head never reaches the current one.
      CREATE TABLE pipelines (
        revision_id INTEGER NOT NULL REFERENCES revisions (id) ON DELETE CASCADE,
        head_sha TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'success', 'failure')),
        url TEXT,
        reason TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (revision_id, head_sha)
      );

      CREATE TABLE reviews (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        revision_id INTEGER NOT NULL REFERENCES revisions (id) ON DELETE CASCADE,
        author TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED')),
        body TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX reviews_by_revision ON reviews (revision_id, id);
      INSERT INTO sqlite_sequence (name, seq) VALUES ('reviews', 1000000);

      CREATE TABLE review_comments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        review_id INTEGER NOT NULL REFERENCES reviews (id) ON DELETE CASCADE,
        path TEXT NOT NULL,
        line INTEGER CHECK (line IS NULL OR line >= 1),
        body TEXT NOT NULL
      );
      CREATE INDEX review_comments_by_review ON review_comments (review_id, id);

      CREATE TABLE revision_comments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        revision_id INTEGER NOT NULL REFERENCES revisions (id) ON DELETE CASCADE,
        author TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
    `;

/**
 * The local provider's tracker: work items, revisions, pipelines, reviews, comments. Work items and revisions
 * share one id sequence (`tracker_ids`), like GitHub issue and pull request numbers; review ids come from
 * their own sequence starting above 1,000,000 so a review id can never pass for an item id.
 */
export const localTrackerMigration: Migration = {
  version: 2,
  name: 'local tracker',
  up(db) {
    db.exec(LOCAL_TRACKER_SCHEMA);
  },
};
