import type { AgentRole, TaskContextEntry, TaskContextEntryType } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';

/** The task context entries of every work item (migration 011). */
export interface TaskContextRepository {
  /** Keeps the first row per id: an entry is never rewritten. */
  save(entry: TaskContextEntry): void;
  /** One item's entries, oldest first. */
  list(workItemID: string): TaskContextEntry[];
  /** Every item's entries, oldest first per item. */
  listAll(): Record<string, TaskContextEntry[]>;
}

interface TaskContextRow {
  id: string;
  work_item_id: string;
  session_id: string;
  role: AgentRole;
  runtime: string | null;
  type: TaskContextEntryType;
  summary: string;
  data: string;
  created_at: number;
}

function fromRow(row: TaskContextRow): TaskContextEntry {
  return {
    id: row.id,
    workItemID: row.work_item_id,
    sessionID: row.session_id,
    role: row.role,
    runtime: row.runtime,
    type: row.type,
    summary: row.summary,
    data: JSON.parse(row.data) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}

export function createTaskContextRepository(target: SqlTarget): TaskContextRepository {
  const sql = asSqlConnection(target);
  return {
    save(entry) {
      sql.run(
        `INSERT INTO task_context (id, work_item_id, session_id, role, runtime, type, summary, data, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
        [
          entry.id,
          entry.workItemID,
          entry.sessionID,
          entry.role,
          entry.runtime,
          entry.type,
          entry.summary,
          JSON.stringify(entry.data),
          entry.createdAt,
        ],
      );
    },
    list: (workItemID) =>
      sql
        .all<TaskContextRow>('SELECT * FROM task_context WHERE work_item_id = ? ORDER BY created_at, rowid', [
          workItemID,
        ])
        .map(fromRow),
    listAll() {
      const byItem: Record<string, TaskContextEntry[]> = {};
      for (const row of sql.all<TaskContextRow>('SELECT * FROM task_context ORDER BY created_at, rowid')) {
        const entries = byItem[row.work_item_id] ?? [];
        entries.push(fromRow(row));
        byItem[row.work_item_id] = entries;
      }
      return byItem;
    },
  };
}
