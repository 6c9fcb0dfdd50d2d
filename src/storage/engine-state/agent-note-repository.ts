import type { AgentNoteRecord } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';
import type { SqlValue } from '../sql/sql-connection.ts';
import { StorageError } from '../storage-error.ts';

/** The decisions and non-blocking questions agents recorded (migration 013). */
export interface AgentNoteRepository {
  save(note: Omit<AgentNoteRecord, 'id'>): AgentNoteRecord;
  /** One item's notes (null: the planner's), oldest first; optionally of one kind. */
  listForItem(workItemID: string | null, kind?: AgentNoteRecord['kind']): AgentNoteRecord[];
  /** Every note of a kind, newest first, at most `limit` (default all), recorded at or after `since`. */
  list(kind: AgentNoteRecord['kind'], options?: { since?: number; limit?: number }): AgentNoteRecord[];
  /** How many notes of each kind were recorded at or after `since` (epoch ms; default all time). */
  count(since?: number): Record<AgentNoteRecord['kind'], number>;
}

interface AgentNoteRow {
  id: number;
  kind: AgentNoteRecord['kind'];
  work_item_id: string | null;
  session_id: string;
  role: AgentNoteRecord['role'];
  runtime: string | null;
  text: string;
  why: string | null;
  created_at: number;
}

function fromRow(row: AgentNoteRow): AgentNoteRecord {
  return {
    id: row.id,
    kind: row.kind,
    workItemID: row.work_item_id,
    sessionID: row.session_id,
    role: row.role,
    runtime: row.runtime,
    text: row.text,
    why: row.why,
    createdAt: row.created_at,
  };
}

export function createAgentNoteRepository(target: SqlTarget): AgentNoteRepository {
  const sql = asSqlConnection(target);
  return {
    save(note) {
      const row = sql.get<AgentNoteRow>(
        `INSERT INTO agent_notes (kind, work_item_id, session_id, role, runtime, text, why, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        [
          note.kind,
          note.workItemID,
          note.sessionID,
          note.role,
          note.runtime,
          note.text,
          note.why,
          note.createdAt,
        ],
      );
      if (row === undefined) throw new StorageError(`${sql.name}: storing a ${note.kind} returned no row`);
      return fromRow(row);
    },
    listForItem(workItemID, kind) {
      const params: SqlValue[] = [workItemID];
      if (kind !== undefined) params.push(kind);
      return sql
        .all<AgentNoteRow>(
          `SELECT * FROM agent_notes WHERE work_item_id IS NOT DISTINCT FROM ?${kind === undefined ? '' : ' AND kind = ?'}
           ORDER BY created_at, id`,
          params,
        )
        .map(fromRow);
    },
    list(kind, options = {}) {
      const params: SqlValue[] = [kind, options.since ?? 0];
      if (options.limit !== undefined) params.push(options.limit);
      return sql
        .all<AgentNoteRow>(
          `SELECT * FROM agent_notes WHERE kind = ? AND created_at >= ? ORDER BY created_at DESC, id DESC${
            options.limit === undefined ? '' : ' LIMIT ?'
          }`,
          params,
        )
        .map(fromRow);
    },
    count(since = 0) {
      const counts = { decision: 0, question: 0 };
      const rows = sql.all<{ kind: AgentNoteRecord['kind']; n: number }>(
        'SELECT kind, COUNT(*) AS n FROM agent_notes WHERE created_at >= ? GROUP BY kind',
        [since],
      );
      for (const row of rows) counts[row.kind] = row.n;
      return counts;
    },
  };
}
