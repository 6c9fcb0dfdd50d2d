import type { ErrorEntry } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';
import { StorageError } from '../storage-error.ts';

/** An error as stored: the event is kept as its type and JSON, for the record rather than for replay. */
export interface StoredEngineError {
  id: number;
  at: number;
  source: string;
  message: string;
  eventType: string | null;
  eventJSON: string | null;
}

export interface EngineErrorRepository {
  append(entry: ErrorEntry): void;
  /** Newest first; default 50. */
  list(query?: { limit?: number }): StoredEngineError[];
}

interface EngineErrorRow {
  id: number;
  at: number;
  source: string;
  message: string;
  event_type: string | null;
  event_json: string | null;
}

export function createEngineErrorRepository(target: SqlTarget): EngineErrorRepository {
  const sql = asSqlConnection(target);
  return {
    append(entry) {
      sql.run(
        'INSERT INTO engine_errors (at, source, message, event_type, event_json) VALUES (?, ?, ?, ?, ?)',
        [
          entry.at,
          entry.source,
          entry.message,
          entry.event?.type ?? null,
          entry.event === null ? null : JSON.stringify(entry.event),
        ],
      );
    },
    list(query = {}) {
      const limit = query.limit ?? 50;
      if (!Number.isInteger(limit) || limit < 1) {
        throw new StorageError(`error history: limit must be a positive integer, got ${limit}`);
      }
      return sql
        .all<EngineErrorRow>('SELECT * FROM engine_errors ORDER BY at DESC, id DESC LIMIT ?', [limit])
        .map((row) => ({
          id: row.id,
          at: row.at,
          source: row.source,
          message: row.message,
          eventType: row.event_type,
          eventJSON: row.event_json,
        }));
    },
  };
}
