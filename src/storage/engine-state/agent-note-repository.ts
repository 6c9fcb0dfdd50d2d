import type { Database } from 'better-sqlite3';
import type { AgentNoteRecord } from '../../domain/index.ts';

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

export function createAgentNoteRepository(db: Database): AgentNoteRepository {
  const insert = db.prepare<unknown[], AgentNoteRow>(
    `INSERT INTO agent_notes (kind, work_item_id, session_id, role, runtime, text, why, created_at)
     VALUES (@kind, @work_item_id, @session_id, @role, @runtime, @text, @why, @created_at) RETURNING *`,
  );
  const selectItem = db.prepare<[{ item: string | null; kind: string | null }], AgentNoteRow>(
    'SELECT * FROM agent_notes WHERE work_item_id IS @item AND (@kind IS NULL OR kind = @kind) ORDER BY created_at, id',
  );
  const selectKind = db.prepare<[string, number, number], AgentNoteRow>(
    'SELECT * FROM agent_notes WHERE kind = ? AND created_at >= ? ORDER BY created_at DESC, id DESC LIMIT ?',
  );
  const countKinds = db.prepare<[number], { kind: AgentNoteRecord['kind']; n: number }>(
    'SELECT kind, COUNT(*) AS n FROM agent_notes WHERE created_at >= ? GROUP BY kind',
  );
  return {
    save(note) {
      return fromRow(
        insert.get({
          kind: note.kind,
          work_item_id: note.workItemID,
          session_id: note.sessionID,
          role: note.role,
          runtime: note.runtime,
          text: note.text,
          why: note.why,
          created_at: note.createdAt,
        }) as AgentNoteRow,
      );
    },
    listForItem: (workItemID, kind) => selectItem.all({ item: workItemID, kind: kind ?? null }).map(fromRow),
    list: (kind, options = {}) => selectKind.all(kind, options.since ?? 0, options.limit ?? -1).map(fromRow),
    count(since = 0) {
      const counts = { decision: 0, question: 0 };
      for (const row of countKinds.all(since)) counts[row.kind] = row.n;
      return counts;
    },
  };
}
