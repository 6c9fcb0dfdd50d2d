import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { messageOf } from '../shared/message-of.ts';
import { MIGRATIONS } from './migrations/index.ts';
import type { Migration } from './migrations/migration.ts';
import { runMigrations } from './run-migrations.ts';
import { StorageError } from './storage-error.ts';

export type { Database } from 'better-sqlite3';

export interface OpenDatabaseOptions {
  /** How long a write waits for another connection's lock before failing (ms). Default 5000. */
  busyTimeoutMs?: number;
  /** Only for tests of the migration machinery; default: every migration Flotilla knows. */
  migrations?: readonly Migration[];
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens (creating if needed) Flotilla's SQLite database, e.g. `.flotilla/flotilla.db`, and migrates it.
 * WAL lets the CLI read while a running engine writes; foreign keys are off by default in SQLite and must
 * be switched on per connection; the busy timeout makes a second writer wait instead of failing at once.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Database {
  if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
  let db: Database;
  try {
    db = new BetterSqlite3(path);
  } catch (error) {
    const message = messageOf(error);
    throw new StorageError(`cannot open database ${path}: ${message}; expected a writable SQLite file`, {
      cause: error,
    });
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))}`);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    // Safe with WAL (a power cut can lose the last commits, never corrupt) and much faster than FULL.
    db.pragma('synchronous = NORMAL');
    runMigrations(db, options.migrations ?? MIGRATIONS);
  } catch (error) {
    db.close();
    if (error instanceof StorageError) throw error;
    const message = messageOf(error);
    throw new StorageError(`cannot open database ${path}: ${message}; expected a Flotilla SQLite database`, {
      cause: error,
    });
  }
  return db;
}
