/** A value a statement binds: text, a number, or NULL (booleans are stored as 0/1 in both backends). */
export type SqlValue = string | number | null;

/**
 * The one SQL port the repositories that live on both backends are written against (src/storage/README.md
 * "Two backends"): synchronous, `?` placeholders, rows as plain objects with the column names as keys.
 * The SQL must be what SQLite and PostgreSQL both accept (`INSERT … ON CONFLICT … DO UPDATE`,
 * `IS DISTINCT FROM`, no `json_each`, no `INSERT OR REPLACE`; `rowid` is a real column on PostgreSQL).
 */
export interface SqlConnection {
  readonly dialect: 'sqlite' | 'postgres';
  /** The database, for error messages: a file path, or PostgreSQL's host:port/database (never a password). */
  readonly name: string;
  run(sql: string, params?: readonly SqlValue[]): void;
  get<Row>(sql: string, params?: readonly SqlValue[]): Row | undefined;
  all<Row>(sql: string, params?: readonly SqlValue[]): Row[];
  /** Runs `body` in a transaction (nested calls join the outer one); a throw rolls it back and rethrows. */
  transaction<T>(body: () => T): T;
  close(): void;
}

/**
 * `column NOT IN (…)` for a list of any length, as SQL and its parameters: an empty list excludes nothing
 * (`NOT IN ()` is not valid PostgreSQL).
 */
export function notIn(column: string, values: readonly string[]): { sql: string; params: string[] } {
  if (values.length === 0) return { sql: '1 = 1', params: [] };
  return { sql: `${column} NOT IN (${values.map(() => '?').join(', ')})`, params: [...values] };
}
