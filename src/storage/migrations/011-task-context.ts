import type { Migration } from './migration.ts';
import { widenFailureReasons } from './widen-failure-reasons.ts';

/**
 * Task context (issue #28 §1, docs/task-context.md): what each run did on a work item, shown to every later
 * run on it and by `flotilla work show`. One row per run and kind (`id` is `<session>:<type>`), so recording
 * an event twice keeps one. Runs keep `no-changes`: the implementor reported its work complete with an empty
 * patch (§6), which sends the item to needs-refinement instead of a retry.
 */
export const taskContextMigration: Migration = {
  version: 11,
  name: 'task context',
  up(db) {
    db.exec(`
      CREATE TABLE task_context (
        id TEXT PRIMARY KEY,
        work_item_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('planner', 'implementor', 'reviewer')),
        runtime TEXT,
        type TEXT NOT NULL,
        summary TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX task_context_by_item ON task_context (work_item_id, created_at);
    `);
    widenFailureReasons(db, ['no-changes']);
  },
};
