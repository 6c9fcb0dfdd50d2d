import { afterAll, beforeAll, beforeEach } from 'vitest';
import { openPostgresState, POSTGRES_STATE_SCHEMA } from '../../../src/storage/open-postgres-state.ts';
import type { SqlConnection } from '../../../src/storage/sql/sql-connection.ts';
import { startPostgres, type TestPostgres } from '../start-postgres.ts';

/** Where the repositories that live on both backends (src/storage/README.md "Two backends") keep their rows. */
export type StateBackendName = 'sqlite' | 'postgres';

/** Every backend, for `describe.each(STATE_BACKENDS)`: one test body run against each. */
export const STATE_BACKENDS: readonly StateBackendName[] = ['sqlite', 'postgres'];

export interface StateBackend {
  /**
   * The PostgreSQL connection for the current test (its tables emptied before it), to pass as
   * `sharedState`; undefined on SQLite, where the repositories use the test's own database.
   */
  connection(): SqlConnection | undefined;
  /** Closes the connection and opens another on the same data, as a restarted process does. */
  reopen(): SqlConnection | undefined;
}

/**
 * Registers the backend's hooks in the enclosing describe: on PostgreSQL a real server for the block
 * (test/support/start-postgres.ts), migrated once and emptied before each test. Call it before the block's
 * own beforeEach, which then sees `connection()`.
 */
export function useStateBackend(name: StateBackendName): StateBackend {
  if (name === 'sqlite') return { connection: () => undefined, reopen: () => undefined };
  let server: TestPostgres | undefined;
  let sql: SqlConnection | undefined;
  const open = (): SqlConnection => {
    if (server === undefined) throw new Error('useStateBackend: PostgreSQL did not start (see beforeAll)');
    sql?.close();
    sql = openPostgresState(server.url);
    return sql;
  };
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => {
    sql?.close();
    server?.stop();
  });
  beforeEach(() => {
    const fresh = open();
    const tables = fresh
      .all<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = ? AND tablename <> 'state_migrations'",
        [POSTGRES_STATE_SCHEMA],
      )
      .map((row) => row.tablename);
    fresh.run(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY`);
  });
  return { connection: () => sql, reopen: open };
}
