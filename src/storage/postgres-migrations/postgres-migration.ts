/**
 * One schema step of the PostgreSQL backend (cluster mode), beside the SQLite ones in ../migrations/: its
 * own numbering from 1, only ever appended, each run in its own transaction with its `state_migrations` row.
 */
export interface PostgresMigration {
  version: number;
  name: string;
  /** Statements run in order (one each: the SQL port runs one statement per call). */
  statements: readonly string[];
}
