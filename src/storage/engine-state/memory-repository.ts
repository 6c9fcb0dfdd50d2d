import type { AgentRole, Memory } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';
import { StorageError } from '../storage-error.ts';

/** What a memory is stored from: an agent's `store_memory`, or a human (`flotilla memory edit`/`import`). */
export interface MemoryInput {
  topic: string;
  text: string;
  source: AgentRole | 'human';
  sessionID: string | null;
  workItemID: string | null;
  runtime: string | null;
  at: number;
}

/** The repository's memories (migration 013): one per topic, case-insensitive. */
export interface MemoryRepository {
  /** Stores the memory; an existing topic keeps its id and creation time and takes the new text. */
  upsert(input: MemoryInput): Memory;
  /** Every memory, newest first (by last update); with `limit`, only that many. */
  list(limit?: number): Memory[];
  /** How many memories there are. */
  count(): number;
  get(id: number): Memory | null;
  /** Replaces a memory's text (a human's edit); null when there is no such memory. */
  edit(id: number, text: string, at: number): Memory | null;
  /** Removes a memory; false when there was none. */
  forget(id: number): boolean;
}

interface MemoryRow {
  id: number;
  topic: string;
  text: string;
  source: Memory['source'];
  session_id: string | null;
  work_item_id: string | null;
  runtime: string | null;
  created_at: number;
  updated_at: number;
}

function fromRow(row: MemoryRow): Memory {
  return {
    id: row.id,
    topic: row.topic,
    text: row.text,
    source: row.source,
    sessionID: row.session_id,
    workItemID: row.work_item_id,
    runtime: row.runtime,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Stores a memory, or gives the row of the same topic (any case) the new text. The unique index is
 * `topic COLLATE NOCASE` on SQLite and `lower(topic)` on PostgreSQL: the conflict target names it.
 */
function upsertSql(dialect: 'sqlite' | 'postgres'): string {
  const topicKey = dialect === 'sqlite' ? 'topic COLLATE NOCASE' : 'lower(topic)';
  return `INSERT INTO memories (topic, text, source, session_id, work_item_id, runtime, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (${topicKey}) DO UPDATE SET
       text = excluded.text, source = excluded.source, session_id = excluded.session_id,
       work_item_id = excluded.work_item_id, runtime = excluded.runtime, updated_at = excluded.updated_at
     RETURNING *`;
}

export function createMemoryRepository(target: SqlTarget): MemoryRepository {
  const sql = asSqlConnection(target);
  const upsert = upsertSql(sql.dialect);
  return {
    upsert(input) {
      const row = sql.get<MemoryRow>(upsert, [
        input.topic,
        input.text,
        input.source,
        input.sessionID,
        input.workItemID,
        input.runtime,
        input.at,
        input.at,
      ]);
      if (row === undefined)
        throw new StorageError(`${sql.name}: storing memory '${input.topic}' returned no row`);
      return fromRow(row);
    },
    list: (limit) =>
      (limit === undefined
        ? sql.all<MemoryRow>('SELECT * FROM memories ORDER BY updated_at DESC, id DESC')
        : sql.all<MemoryRow>('SELECT * FROM memories ORDER BY updated_at DESC, id DESC LIMIT ?', [limit])
      ).map(fromRow),
    count: () => sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM memories')?.n ?? 0,
    get(id) {
      const row = sql.get<MemoryRow>('SELECT * FROM memories WHERE id = ?', [id]);
      return row === undefined ? null : fromRow(row);
    },
    edit(id, text, at) {
      const row = sql.get<MemoryRow>(
        "UPDATE memories SET text = ?, source = 'human', updated_at = ? WHERE id = ? RETURNING *",
        [text, at, id],
      );
      return row === undefined ? null : fromRow(row);
    },
    forget: (id) =>
      sql.get<{ id: number }>('DELETE FROM memories WHERE id = ? RETURNING id', [id]) !== undefined,
  };
}
