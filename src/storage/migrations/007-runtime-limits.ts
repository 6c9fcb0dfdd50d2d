import type { Migration } from './migration.ts';

/**
 * Provider limits (issue #14): the run history says `rate-limit`, `overloaded` or `usage-limit` instead of
 * folding them into `error`, and names the account a run used; `runtime_parkings` keeps parked runtimes and
 * exhausted accounts across restarts (kill -9 included). SQLite cannot alter a CHECK constraint, so
 * agent_runs is rebuilt from its current definition — whatever columns earlier migrations added stay, with
 * their indexes — and only the failure_reason list is widened.
 */
export const runtimeLimitsMigration: Migration = {
  version: 7,
  name: 'runtime limits and accounts',
  up(db) {
    db.exec('ALTER TABLE agent_runs ADD COLUMN account TEXT');
    const table = db
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'agent_runs'")
      .get() as { sql: string };
    const widened = table.sql.replace(
      /failure_reason TEXT CHECK \(failure_reason IN \(([^)]*)\)\)/,
      (_match, list: string) =>
        `failure_reason TEXT CHECK (failure_reason IN (${list}, 'rate-limit', 'overloaded', 'usage-limit'))`,
    );
    if (widened === table.sql) throw new Error('agent_runs: the failure_reason CHECK was not found');
    const indexes = db
      .prepare(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'agent_runs' AND sql IS NOT NULL",
      )
      .all() as { sql: string }[];
    const columns = (db.prepare('PRAGMA table_info(agent_runs)').all() as { name: string }[])
      .map((column) => column.name)
      .join(', ');
    db.exec(widened.replace(/CREATE TABLE "?agent_runs"?/, 'CREATE TABLE agent_runs_v7'));
    db.exec(`INSERT INTO agent_runs_v7 (${columns}) SELECT ${columns} FROM agent_runs`);
    db.exec('DROP TABLE agent_runs');
    db.exec('ALTER TABLE agent_runs_v7 RENAME TO agent_runs');
    for (const index of indexes) db.exec(index.sql);
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
