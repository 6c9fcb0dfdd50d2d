import { messageOf } from '../shared/message-of.ts';
import { POSTGRES_MIGRATIONS, type PostgresMigration } from './postgres-migrations/index.ts';
import { createPostgresConnection } from './sql/create-postgres-connection.ts';
import type { SqlConnection } from './sql/sql-connection.ts';
import { StorageError } from './storage-error.ts';

/** The schema the engine's state lives in on the cluster's database (beside DBOS's and the lease tables). */
export const POSTGRES_STATE_SCHEMA = 'flotilla_state';

/** The advisory lock every Flotilla process takes around schema changes (src/cluster/with-schema-lock.ts). */
const SCHEMA_LOCK_KEY = 3_303_303;
const LOCK_RETRY_MS = 100;
const LOCK_WAIT_LIMIT_MS = 120_000;

export interface OpenPostgresStateOptions {
  /** Only for tests of the migration machinery; default: every PostgreSQL migration Flotilla knows. */
  migrations?: readonly PostgresMigration[];
}

/**
 * Connects to the cluster's PostgreSQL (cluster mode: `cluster.postgres`) and brings the engine-state schema
 * up to date: the same repositories as `.flotilla/flotilla.db` serves on one machine, over the SQL port.
 */
export function openPostgresState(url: string, options: OpenPostgresStateOptions = {}): SqlConnection {
  const sql = createPostgresConnection(url, { searchPath: POSTGRES_STATE_SCHEMA });
  try {
    withTriedSchemaLock(sql, () => migrate(sql, options.migrations ?? POSTGRES_MIGRATIONS));
  } catch (error) {
    sql.close();
    throw error;
  }
  return sql;
}

function migrate(sql: SqlConnection, migrations: readonly PostgresMigration[]): void {
  sql.run(`CREATE SCHEMA IF NOT EXISTS ${POSTGRES_STATE_SCHEMA}`);
  sql.run(
    'CREATE TABLE IF NOT EXISTS state_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const recorded = new Set(
    sql.all<{ version: number }>('SELECT version FROM state_migrations').map((row) => row.version),
  );
  const newest = Math.max(0, ...recorded);
  const known = migrations.at(-1)?.version ?? 0;
  if (newest > known) {
    throw new StorageError(
      `${sql.name}: schema ${POSTGRES_STATE_SCHEMA} has version ${newest}, newer than the newest this Flotilla ` +
        `knows (${known}); expected version ${known} or older — upgrade Flotilla on this machine`,
    );
  }
  for (const migration of migrations) {
    if (recorded.has(migration.version)) continue;
    try {
      sql.transaction(() => {
        for (const statement of migration.statements) sql.run(statement);
        sql.run('INSERT INTO state_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
          migration.version,
          migration.name,
          new Date().toISOString(),
        ]);
      });
    } catch (error) {
      throw new StorageError(
        `${sql.name}: migration ${migration.version} (${migration.name}) failed: ${messageOf(error)}`,
        { cause: error },
      );
    }
  }
}

/**
 * Runs `change` holding the schema advisory lock. Tried, never waited on in the server (a waiting session
 * would block DBOS's `CREATE INDEX CONCURRENTLY` in the holder: src/cluster/README.md); this process sleeps
 * between tries, synchronously like the rest of the port.
 */
function withTriedSchemaLock(sql: SqlConnection, change: () => void): void {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + LOCK_WAIT_LIMIT_MS;
  while (
    sql.get<{ taken: boolean }>('SELECT pg_try_advisory_lock(?) AS taken', [SCHEMA_LOCK_KEY])?.taken !== true
  ) {
    if (Date.now() > deadline)
      throw new StorageError(
        `${sql.name}: the schema lock (advisory lock ${SCHEMA_LOCK_KEY}) stayed taken for ${LOCK_WAIT_LIMIT_MS / 1000} s; expected another Flotilla process to finish migrating`,
      );
    Atomics.wait(sleeper, 0, 0, LOCK_RETRY_MS);
  }
  try {
    change();
  } finally {
    sql.run('SELECT pg_advisory_unlock(?)', [SCHEMA_LOCK_KEY]);
  }
}
