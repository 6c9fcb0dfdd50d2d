import type { Database } from 'better-sqlite3';
import { messageOf } from '../shared/message-of.ts';
import type { Migration } from './migrations/migration.ts';
import { StorageError } from './storage-error.ts';

const PLACEHOLDER_PREFIX = 'reserved for ';

export interface MigrationReport {
  /** Schema version before this open; 0 for a new database. */
  fromVersion: number;
  toVersion: number;
  applied: number[];
}

/**
 * Brings the schema up to the newest migration, each step in its own transaction together with its
 * `schema_migrations` row, so a failed step leaves the database at the previous version. A database written
 * by a newer Flotilla is refused rather than guessed at.
 */
export function runMigrations(db: Database, migrations: readonly Migration[]): MigrationReport {
  checkMigrationList(migrations);
  db.exec(`
    CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )
  `);
  const rows = db.prepare('SELECT version, name FROM schema_migrations').all() as {
    version: number;
    name: string;
  }[];
  const recorded = new Set(rows.map((row) => row.version));
  // A version held by a placeholder (`reserved for …`, a number assigned to work not landed yet) is applied
  // for real once its migration arrives.
  const placeholders = new Set(
    rows.filter((row) => row.name.startsWith(PLACEHOLDER_PREFIX)).map((row) => row.version),
  );
  const fromVersion = recorded.size === 0 ? 0 : Math.max(...recorded);
  const known = migrations.at(-1)?.version ?? 0;
  if (fromVersion > known) {
    throw new StorageError(
      `database ${db.name} has schema version ${fromVersion}, newer than the newest this Flotilla knows ` +
        `(${known}); expected version ${known} or older — upgrade Flotilla or use another database`,
    );
  }
  const record = db.prepare(
    'INSERT OR REPLACE INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  const applied: number[] = [];
  for (const migration of migrations) {
    // By set, not by the highest version: numbers are pre-assigned to parallel work, so a lower one (005)
    // can arrive after a higher one (006) was applied, and must still run.
    const placeholderReplaced =
      placeholders.has(migration.version) && !migration.name.startsWith(PLACEHOLDER_PREFIX);
    if (recorded.has(migration.version) && !placeholderReplaced) continue;
    try {
      db.transaction(() => {
        migration.up(db);
        record.run(migration.version, migration.name, new Date().toISOString());
      })();
    } catch (error) {
      const message = messageOf(error);
      throw new StorageError(
        `database ${db.name}: migration ${migration.version} (${migration.name}) failed: ${message}`,
        { cause: error },
      );
    }
    applied.push(migration.version);
  }
  return { fromVersion, toVersion: Math.max(fromVersion, known), applied };
}

/** Versions start at 1 and increase; a gap is a number reserved for a migration not released yet. */
function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    const previous = index === 0 ? 0 : (migrations[index - 1]?.version ?? 0);
    if (index === 0 ? migration.version !== 1 : migration.version <= previous) {
      const expected = index === 0 ? 'version 1' : `a version above ${previous}`;
      throw new StorageError(
        `migration list: expected ${expected} at position ${index + 1}, got ${migration.version} ` +
          `(${migration.name}); versions must start at 1 and increase`,
      );
    }
  });
}
