import type { Migration } from './migration.ts';
import { widenFailureReasons } from './widen-failure-reasons.ts';

/**
 * Provider limits (issue #14): the run history says `rate-limit`, `overloaded` or `usage-limit` instead of
 * folding them into `error`, and names the account a run used; `runtime_parkings` keeps parked runtimes and
 * exhausted accounts across restarts (kill -9 included). The failure_reason CHECK is widened by
 * rebuilding agent_runs (`widen-failure-reasons.ts`).
 */
export const runtimeLimitsMigration: Migration = {
  version: 7,
  name: 'runtime limits and accounts',
  up(db) {
    db.exec('ALTER TABLE agent_runs ADD COLUMN account TEXT');
    widenFailureReasons(db, ['rate-limit', 'overloaded', 'usage-limit']);
    db.exec(`
      CREATE TABLE runtime_parkings (
        key TEXT PRIMARY KEY,
        runtime TEXT NOT NULL,
        account TEXT,
        reason TEXT NOT NULL CHECK (reason IN ('rate-limit', 'overloaded', 'usage-limit')),
        until_at INTEGER NOT NULL,
        since_at INTEGER NOT NULL,
        hits INTEGER NOT NULL,
        message TEXT NOT NULL
      );
    `);
  },
};
