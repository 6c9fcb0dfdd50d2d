import type { AgentConversation, ConversationStatus } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';

/** The conversations between agents (migration 016), written from the broker's events. */
export interface AgentConversationRepository {
  /** Inserts or replaces the conversation as created. */
  save(conversation: AgentConversation): void;
  /** Records how an open conversation ended; false when there is none open with that id. */
  finish(id: string, status: Exclude<ConversationStatus, 'open'>, answer: string, at: number): boolean;
  /** Newest first, at most `limit` (default 50); with `workItemID`, those it asked or was asked on. */
  list(options?: { workItemID?: string; limit?: number }): AgentConversation[];
  /** Conversations left open by a run that did not end cleanly (a crash): ended `stopped`. */
  stopOpen(at: number): number;
}

interface Row {
  id: string;
  from_session_id: string;
  from_role: AgentConversation['from']['role'];
  from_work_item_id: string | null;
  target: string;
  to_session_id: string | null;
  to_role: AgentConversation['from']['role'] | null;
  to_work_item_id: string | null;
  question: string;
  status: ConversationStatus;
  answer: string | null;
  timeout_seconds: number;
  created_at: number;
  answered_at: number | null;
}

function fromRow(row: Row): AgentConversation {
  return {
    id: row.id,
    from: { sessionID: row.from_session_id, role: row.from_role, workItemID: row.from_work_item_id },
    target: row.target,
    to:
      row.to_session_id === null || row.to_role === null
        ? null
        : { sessionID: row.to_session_id, role: row.to_role, workItemID: row.to_work_item_id },
    question: row.question,
    status: row.status,
    answer: row.answer,
    timeoutSeconds: row.timeout_seconds,
    createdAt: row.created_at,
    answeredAt: row.answered_at,
  };
}

const COLUMNS = [
  'id',
  'from_session_id',
  'from_role',
  'from_work_item_id',
  'target',
  'to_session_id',
  'to_role',
  'to_work_item_id',
  'question',
  'status',
  'answer',
  'timeout_seconds',
  'created_at',
  'answered_at',
] as const;

/** Inserts a conversation or rewrites every column of its row (the SQL both backends accept). */
const UPSERT = `INSERT INTO agent_conversations (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (id) DO UPDATE SET ${COLUMNS.filter((column) => column !== 'id')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ')}`;

export function createAgentConversationRepository(target: SqlTarget): AgentConversationRepository {
  const sql = asSqlConnection(target);
  return {
    save(conversation) {
      sql.run(UPSERT, [
        conversation.id,
        conversation.from.sessionID,
        conversation.from.role,
        conversation.from.workItemID,
        conversation.target,
        conversation.to?.sessionID ?? null,
        conversation.to?.role ?? null,
        conversation.to?.workItemID ?? null,
        conversation.question,
        conversation.status,
        conversation.answer,
        conversation.timeoutSeconds,
        conversation.createdAt,
        conversation.answeredAt,
      ]);
    },
    finish: (id, status, answer, at) =>
      sql.get<{ id: string }>(
        `UPDATE agent_conversations SET status = ?, answer = ?, answered_at = ? WHERE id = ? AND status = 'open'
          RETURNING id`,
        [status, answer, at, id],
      ) !== undefined,
    list(options = {}) {
      const limit = options.limit ?? 50;
      const rows =
        options.workItemID === undefined
          ? sql.all<Row>('SELECT * FROM agent_conversations ORDER BY created_at DESC, rowid DESC LIMIT ?', [
              limit,
            ])
          : sql.all<Row>(
              `SELECT * FROM agent_conversations WHERE from_work_item_id = ? OR to_work_item_id = ?
                ORDER BY created_at DESC, rowid DESC LIMIT ?`,
              [options.workItemID, options.workItemID, limit],
            );
      return rows.map(fromRow);
    },
    stopOpen: (at) =>
      sql.all<{ id: string }>(
        `UPDATE agent_conversations SET status = 'stopped', answer = 'Flotilla stopped before it was answered',
          answered_at = ? WHERE status = 'open' RETURNING id`,
        [at],
      ).length,
  };
}
