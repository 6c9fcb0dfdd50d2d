import { openPostgresState } from '../../src/storage/open-postgres-state.ts';
import type { SqlConnection } from '../../src/storage/sql/sql-connection.ts';

/**
 * Reads the engine state a cluster's controllers recorded in PostgreSQL (schema `flotilla_state`: runs,
 * budget ledger, parkings, waiting sessions, planned specs, task context, proposals, memories, notes,
 * conversations, errors), over the same SQL port `flotilla run` uses; numbers come back as numbers.
 */
export function readClusterState<T>(url: string, read: (sql: SqlConnection) => T): T {
  const sql = openPostgresState(url);
  try {
    return read(sql);
  } finally {
    sql.close();
  }
}
