import type { Database } from 'better-sqlite3';
import type { AgentRole, Memory } from '../../domain/index.ts';

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

export function createMemoryRepository(db: Database): MemoryRepository {
  const upsert = db.prepare<unknown[], MemoryRow>(
    `INSERT INTO memories (topic, text, source, session_id, work_item_id, runtime, created_at, updated_at)
     VALUES (@topic, @text, @source, @session_id, @work_item_id, @runtime, @at, @at)
     ON CONFLICT (topic COLLATE NOCASE) DO UPDATE SET
       text = excluded.text, source = excluded.source, session_id = excluded.session_id,
       work_item_id = excluded.work_item_id, runtime = excluded.runtime, updated_at = excluded.updated_at
     RETURNING *`,
  );
  const selectAll = db.prepare<[number], MemoryRow>(
    'SELECT * FROM memories ORDER BY updated_at DESC, id DESC LIMIT ?',
  );
  const countAll = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM memories');
  const selectOne = db.prepare<[number], MemoryRow>('SELECT * FROM memories WHERE id = ?');
  const update = db.prepare<[string, number, number], MemoryRow>(
    "UPDATE memories SET text = ?, source = 'human', updated_at = ? WHERE id = ? RETURNING *",
  );
  const remove = db.prepare<[number]>('DELETE FROM memories WHERE id = ?');
  return {
    upsert(input) {
      const row = upsert.get({
        topic: input.topic,
        text: input.text,
        source: input.source,
        session_id: input.sessionID,
        work_item_id: input.workItemID,
        runtime: input.runtime,
        at: input.at,
      }) as MemoryRow;
      return fromRow(row);
    },
    list: (limit = -1) => selectAll.all(limit).map(fromRow),
    count: () => countAll.get()?.n ?? 0,
    get(id) {
      const row = selectOne.get(id);
      return row === undefined ? null : fromRow(row);
    },
    edit(id, text, at) {
      const row = update.get(text, at, id);
      return row === undefined ? null : fromRow(row);
    },
    forget: (id) => remove.run(id).changes > 0,
  };
}
