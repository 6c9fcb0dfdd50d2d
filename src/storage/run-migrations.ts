import type { Database } from 'better-sqlite3';
import { messageOf } from '../shared/message-of.ts';
import type { Migration } from './migrations/migration.ts';
import { StorageError } from './storage-error.ts';

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
  const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as {
    version: number | null;
  };
  const fromVersion = row.version ?? 0;
  const known = migrations.at(-1)?.version ?? 0;
  if (fromVersion > known) {
    throw new StorageError(
      `database ${db.name} has schema version ${fromVersion}, newer than the newest this Flotilla knows ` +
        `(${known}); expected version ${known} or older — upgrade Flotilla or use another database`,
    );
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= fromVersion) continue;
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

function checkMigrationList(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new StorageError(
        `migration list: expected version ${index + 1} at position ${index + 1}, got ${migration.version} ` +
          `(${migration.name}); versions must start at 1 and increase by one`,
      );
    }
  });
}
