import type { ItemAgentRole, KeptSession, WaitingSession, WorkItemMode } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';
import type { SqlValue } from '../sql/sql-connection.ts';

/**
 * The sessions waiting for answers, one per work item: implementors' and reviewers' (migration 005) and
 * planners', on their questions items (migration 009); an implementor's read-only mode beside (migration 020).
 */
export interface WaitingSessionRepository {
  /** Every waiting session; answers are not kept (they are on the tracker, where the poller finds them). */
  list(): WaitingSession[];
  save(waiting: WaitingSession): void;
  remove(workItemID: string): void;
}

/** The columns both tables share. */
interface KeptSessionRow {
  work_item_id: string;
  session_id: string;
  session_number: number;
  runtime: string;
  agent_session_id: string | null;
  worktree_branch: string | null;
  worktree_path: string | null;
  worktree_base_commit: string | null;
  state_dir: string | null;
  questions: string;
  asked_at: number;
}

interface WaitingSessionRow extends KeptSessionRow {
  role: ItemAgentRole;
  revision_id: string | null;
  /** Migration 020 (`waiting_session_modes`): an implementor's read-only mode; NULL: implement. */
  mode: WorkItemMode | null;
}

interface PlannerWaitingSessionRow extends KeptSessionRow {
  spec_shas: string;
}

const SHARED_COLUMNS: readonly (keyof KeptSessionRow)[] = [
  'work_item_id',
  'session_id',
  'session_number',
  'runtime',
  'agent_session_id',
  'worktree_branch',
  'worktree_path',
  'worktree_base_commit',
  'state_dir',
  'questions',
  'asked_at',
];

/** One row per work item: a later save replaces the item's row. */
function buildUpsert(table: string, extraColumns: readonly string[]): string {
  const columns = [...SHARED_COLUMNS, ...extraColumns];
  const updates = columns.filter((column) => column !== 'work_item_id').map((c) => `${c} = excluded.${c}`);
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
    ON CONFLICT (work_item_id) DO UPDATE SET ${updates.join(', ')}`;
}

const UPSERT_ITEM = buildUpsert('waiting_sessions', ['role', 'revision_id']);
const UPSERT_MODE = `INSERT INTO waiting_session_modes (work_item_id, mode) VALUES (?, ?)
  ON CONFLICT (work_item_id) DO UPDATE SET mode = excluded.mode`;
const SELECT_ITEMS = `SELECT w.*, m.mode FROM waiting_sessions w
  LEFT JOIN waiting_session_modes m ON m.work_item_id = w.work_item_id`;
const UPSERT_PLANNER = buildUpsert('planner_waiting_sessions', ['spec_shas']);

/** The waiting sessions over the SQL port: SQLite on one machine, PostgreSQL in cluster mode. */
export function createWaitingSessionRepository(target: SqlTarget): WaitingSessionRepository {
  const sql = asSqlConnection(target);
  return {
    list() {
      const items = sql.all<WaitingSessionRow>(SELECT_ITEMS).map(
        (row): WaitingSession => ({
          ...fromSharedRow(row),
          role: row.role,
          revisionID: row.revision_id,
          ...(row.mode !== null && { mode: row.mode }),
        }),
      );
      const planners = sql.all<PlannerWaitingSessionRow>('SELECT * FROM planner_waiting_sessions').map(
        (row): WaitingSession => ({
          ...fromSharedRow(row),
          role: 'planner',
          revisionID: null,
          specSHAs: JSON.parse(row.spec_shas) as Record<string, string>,
        }),
      );
      return [...items, ...planners].sort((a, b) => a.askedAt - b.askedAt);
    },
    save(waiting) {
      const shared = sharedValues(toSharedRow(waiting));
      if (waiting.role === 'planner')
        sql.run(UPSERT_PLANNER, [...shared, JSON.stringify(waiting.specSHAs ?? {})]);
      else
        sql.transaction(() => {
          sql.run(UPSERT_ITEM, [...shared, waiting.role, waiting.revisionID]);
          if (waiting.mode === undefined)
            sql.run('DELETE FROM waiting_session_modes WHERE work_item_id = ?', [waiting.workItemID]);
          else sql.run(UPSERT_MODE, [waiting.workItemID, waiting.mode]);
        });
    },
    remove(workItemID) {
      sql.transaction(() => {
        sql.run('DELETE FROM waiting_sessions WHERE work_item_id = ?', [workItemID]);
        sql.run('DELETE FROM waiting_session_modes WHERE work_item_id = ?', [workItemID]);
        sql.run('DELETE FROM planner_waiting_sessions WHERE work_item_id = ?', [workItemID]);
      });
    },
  };
}

/** The shared columns' values, in SHARED_COLUMNS' order. */
function sharedValues(row: KeptSessionRow): SqlValue[] {
  return SHARED_COLUMNS.map((column) => row[column]);
}

function fromSharedRow(row: KeptSessionRow): Omit<WaitingSession, 'role' | 'revisionID'> {
  const session: KeptSession = {
    runtime: row.runtime,
    agentSessionID: row.agent_session_id,
    worktree:
      row.worktree_path !== null && row.worktree_branch !== null && row.worktree_base_commit !== null
        ? { branchName: row.worktree_branch, path: row.worktree_path, baseCommit: row.worktree_base_commit }
        : null,
    stateDir: row.state_dir,
  };
  return {
    workItemID: row.work_item_id,
    sessionID: row.session_id,
    sessionNumber: row.session_number,
    questions: JSON.parse(row.questions) as string[],
    session,
    askedAt: row.asked_at,
    answers: null,
  };
}

function toSharedRow(waiting: WaitingSession): KeptSessionRow {
  const { session } = waiting;
  return {
    work_item_id: waiting.workItemID,
    session_id: waiting.sessionID,
    session_number: waiting.sessionNumber,
    runtime: session.runtime,
    agent_session_id: session.agentSessionID,
    worktree_branch: session.worktree?.branchName ?? null,
    worktree_path: session.worktree?.path ?? null,
    worktree_base_commit: session.worktree?.baseCommit ?? null,
    state_dir: session.stateDir,
    questions: JSON.stringify(waiting.questions),
    asked_at: waiting.askedAt,
  };
}
