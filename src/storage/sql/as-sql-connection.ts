import type { Database } from 'better-sqlite3';
import { createSqliteConnection } from './create-sqlite-connection.ts';
import type { SqlConnection } from './sql-connection.ts';

/** What the two-backend repositories take: the SQL port, or an open SQLite database (one machine). */
export type SqlTarget = Database | SqlConnection;

export function asSqlConnection(target: SqlTarget): SqlConnection {
  return 'dialect' in target ? target : createSqliteConnection(target);
}
