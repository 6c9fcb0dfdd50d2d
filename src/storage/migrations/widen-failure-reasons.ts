import type { Database } from 'better-sqlite3';

/**
 * Adds reasons to agent_runs' failure_reason CHECK. SQLite cannot alter a CHECK constraint, so the table is
 * rebuilt from its current definition — whatever columns earlier migrations added stay, with their indexes —
 * and only the list is widened.
 */
export function widenFailureReasons(db: Database, reasons: readonly string[]): void {
  const table = db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'agent_runs'")
    .get() as { sql: string };
  const added = reasons.map((reason) => `'${reason}'`).join(', ');
  const widened = table.sql.replace(
    /failure_reason TEXT CHECK \(failure_reason IN \(([^)]*)\)\)/,
    (_match, list: string) => `failure_reason TEXT CHECK (failure_reason IN (${list}, ${added}))`,
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
  db.exec(widened.replace(/CREATE TABLE "?agent_runs"?/, 'CREATE TABLE agent_runs_widened'));
  db.exec(`INSERT INTO agent_runs_widened (${columns}) SELECT ${columns} FROM agent_runs`);
  db.exec('DROP TABLE agent_runs');
  db.exec('ALTER TABLE agent_runs_widened RENAME TO agent_runs');
  for (const index of indexes) db.exec(index.sql);
}
