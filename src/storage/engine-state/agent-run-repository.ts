import type {
  AgentFailureReason,
  AgentRole,
  AgentRun,
  AgentRunStatus,
  AgentUsage,
  CancelRequester,
  WorkItemMode,
} from '../../domain/index.ts';
import { BUDGET_FAILURE_PREFIX, SCRIPTED_RUNTIME } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';
import type { SqlValue } from '../sql/sql-connection.ts';
import { StorageError } from '../storage-error.ts';

/** A run as stored: the engine's AgentRun plus why it failed, when it did. */
export type StoredAgentRun = AgentRun & { failureReason: AgentFailureReason | null };

export interface ListRunsQuery {
  /** Newest first; default 50. */
  limit?: number;
  /** Only implementor and reviewer runs for this work item. */
  workItemID?: string | undefined;
}

export interface AgentRunRepository {
  /** Inserts or replaces the run's row with everything the run says now. */
  save(run: AgentRun): void;
  get(sessionID: string): StoredAgentRun | null;
  list(query?: ListRunsQuery): StoredAgentRun[];
  /** Runs still `requested` or `running`. */
  listActive(): StoredAgentRun[];
  /** Account name → the latest `requested_at` of its runs (account choice after a restart). */
  lastUseByAccount(): Record<string, number>;
  /** Marks every active run but those in `keep` failed with `error` at `at`; returns them as they are now. */
  failActive(error: string, at: number, keep?: ReadonlySet<string>): StoredAgentRun[];
  /**
   * The summed reported cost (USD) of every recorded run; runs that reported none count as 0, and scripted
   * runs (made-up costs) are left out.
   */
  totalCostUSD(): number;
}

interface AgentRunRow {
  session_id: string;
  role: AgentRole;
  status: AgentRunStatus;
  work_item_id: string | null;
  spec_paths: string;
  spec_shas: string;
  branch_name: string | null;
  revision_id: string | null;
  requested_at: number;
  ended_at: number | null;
  failure_reason: AgentFailureReason | null;
  error: string | null;
  log_file_path: string | null;
  cost_usd: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  turns: number | null;
  cancel_requested_by: CancelRequester | null;
  runtime: string | null;
  account: string | null;
  session_number: number | null;
  asked_questions: 0 | 1;
  estimated_files: string | null;
  changed_files: string | null;
  /** An implementor's WorkItemMode, or a planner's `plan-revision` (issue #29); null otherwise. */
  mode: string | null;
  model: string | null;
  model_reason: string | null;
}

export const DEFAULT_RUN_LIST_LIMIT = 50;

/** The failure reason a terminal status stands for (the inverse of failureReasonToRunStatus). */
function failureReasonOf(status: AgentRunStatus): AgentFailureReason | null {
  if (status === 'failed') return 'error';
  if (status === 'timed-out') return 'timeout';
  if (status === 'cancelled') return 'cancelled';
  return null;
}

function toRow(run: AgentRun): AgentRunRow {
  return {
    session_id: run.sessionID,
    role: run.role,
    status: run.status,
    work_item_id: run.role === 'planner' ? null : run.workItemID,
    spec_paths: JSON.stringify(run.role === 'planner' ? run.specPaths : []),
    spec_shas: JSON.stringify(run.role === 'planner' ? run.specSHAs : {}),
    branch_name: run.role === 'implementor' ? run.branchName : null,
    revision_id: run.role === 'reviewer' ? run.revisionID : null,
    requested_at: run.requestedAt,
    ended_at: run.endedAt,
    failure_reason: run.failureReason ?? failureReasonOf(run.status),
    error: run.error,
    log_file_path: run.logFilePath,
    cost_usd: run.usage?.costUSD ?? null,
    input_tokens: run.usage?.inputTokens ?? null,
    output_tokens: run.usage?.outputTokens ?? null,
    turns: run.usage?.turns ?? null,
    cancel_requested_by: run.cancelRequestedBy,
    runtime: run.runtime ?? null,
    account: run.account ?? null,
    session_number: run.sessionNumber ?? null,
    asked_questions: run.askedQuestions === true ? 1 : 0,
    estimated_files: filesColumn(run.role === 'implementor' ? run.estimatedFiles : undefined),
    changed_files: filesColumn(run.role === 'implementor' ? run.changedFiles : undefined),
    mode: run.role === 'reviewer' ? null : (run.mode ?? null),
    model: run.role === 'implementor' ? (run.model ?? null) : null,
    model_reason: run.role === 'implementor' ? (run.modelReason ?? null) : null,
  };
}

function filesColumn(files: readonly string[] | undefined): string | null {
  return files === undefined ? null : JSON.stringify(files);
}

/** A files column as written by `filesColumn`; anything else reads as no files rather than failing the load. */
function readFilesColumn(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((path): path is string => typeof path === 'string') : [];
  } catch {
    return [];
  }
}

function fromRow(row: AgentRunRow): StoredAgentRun {
  const base = baseFieldsOf(row);
  switch (row.role) {
    case 'planner':
      return {
        ...base,
        role: 'planner',
        specPaths: JSON.parse(row.spec_paths) as string[],
        specSHAs: JSON.parse(row.spec_shas) as Record<string, string>,
        ...((row.mode === 'plan' || row.mode === 'plan-revision') && { mode: row.mode }),
      };
    case 'implementor':
      return {
        ...base,
        role: 'implementor',
        workItemID: row.work_item_id ?? '',
        branchName: row.branch_name ?? '',
        ...(row.estimated_files !== null && { estimatedFiles: readFilesColumn(row.estimated_files) }),
        ...(row.changed_files !== null && { changedFiles: readFilesColumn(row.changed_files) }),
        ...((row.mode === 'investigate' || row.mode === 'refine') && { mode: row.mode as WorkItemMode }),
        ...(row.model !== null && { model: row.model }),
        ...(row.model_reason !== null && { modelReason: row.model_reason }),
      };
    case 'reviewer':
      return {
        ...base,
        role: 'reviewer',
        workItemID: row.work_item_id ?? '',
        revisionID: row.revision_id ?? '',
      };
  }
}

/** The fields every role's run has; usage null when the row has none of it. */
function baseFieldsOf(row: AgentRunRow) {
  const usage: AgentUsage | null =
    row.cost_usd === null && row.input_tokens === null && row.output_tokens === null && row.turns === null
      ? null
      : {
          costUSD: row.cost_usd,
          inputTokens: row.input_tokens,
          outputTokens: row.output_tokens,
          turns: row.turns,
        };
  return {
    sessionID: row.session_id,
    status: row.status,
    logFilePath: row.log_file_path,
    error: row.error,
    requestedAt: row.requested_at,
    endedAt: row.ended_at,
    usage,
    cancelRequestedBy: row.cancel_requested_by,
    failureReason:
      row.failure_reason === 'cancelled' && row.error?.startsWith(BUDGET_FAILURE_PREFIX) === true
        ? 'budget'
        : row.failure_reason,
    ...(row.runtime !== null && { runtime: row.runtime }),
    ...(row.account !== null && { account: row.account }),
    ...(row.session_number !== null && { sessionNumber: row.session_number }),
    ...(row.asked_questions === 1 && { askedQuestions: true }),
  };
}

const COLUMNS: readonly (keyof AgentRunRow)[] = [
  'session_id',
  'role',
  'status',
  'work_item_id',
  'spec_paths',
  'spec_shas',
  'branch_name',
  'revision_id',
  'requested_at',
  'ended_at',
  'failure_reason',
  'error',
  'log_file_path',
  'cost_usd',
  'input_tokens',
  'output_tokens',
  'turns',
  'cancel_requested_by',
  'runtime',
  'account',
  'session_number',
  'asked_questions',
  'estimated_files',
  'changed_files',
  'mode',
  'model',
  'model_reason',
];

const UPSERT_RUN = `
  INSERT INTO agent_runs (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (session_id) DO UPDATE SET
    ${COLUMNS.filter((column) => column !== 'session_id')
      .map((column) => `${column} = excluded.${column}`)
      .join(', ')}
`;

const ACTIVE = "status IN ('requested', 'running')";

/** The run history (`agent_runs`) over the SQL port: SQLite on one machine, PostgreSQL in cluster mode. */
export function createAgentRunRepository(target: SqlTarget): AgentRunRepository {
  const sql = asSqlConnection(target);
  const selectOne = (sessionID: string) =>
    sql.get<AgentRunRow>('SELECT * FROM agent_runs WHERE session_id = ?', [sessionID]);
  const selectActive = () =>
    sql.all<AgentRunRow>(`SELECT * FROM agent_runs WHERE ${ACTIVE} ORDER BY requested_at, rowid`);
  return {
    save(run) {
      const row = toRow(run);
      sql.run(
        UPSERT_RUN,
        COLUMNS.map((column): SqlValue => row[column]),
      );
    },
    get(sessionID) {
      const row = selectOne(sessionID);
      return row === undefined ? null : fromRow(row);
    },
    list(query = {}) {
      const limit = query.limit ?? DEFAULT_RUN_LIST_LIMIT;
      if (!Number.isInteger(limit) || limit < 1) {
        throw new StorageError(`run history: limit must be a positive integer, got ${limit}`);
      }
      const rows =
        query.workItemID === undefined
          ? sql.all<AgentRunRow>('SELECT * FROM agent_runs ORDER BY requested_at DESC, rowid DESC LIMIT ?', [
              limit,
            ])
          : sql.all<AgentRunRow>(
              'SELECT * FROM agent_runs WHERE work_item_id = ? ORDER BY requested_at DESC, rowid DESC LIMIT ?',
              [query.workItemID, limit],
            );
      return rows.map(fromRow);
    },
    listActive() {
      return selectActive().map(fromRow);
    },
    lastUseByAccount() {
      const rows = sql.all<{ account: string; last_used: number }>(
        'SELECT account, MAX(requested_at) AS last_used FROM agent_runs WHERE account IS NOT NULL GROUP BY account',
      );
      return Object.fromEntries(rows.map((row) => [row.account, row.last_used]));
    },
    totalCostUSD() {
      return (
        sql.get<{ total: number }>(
          'SELECT COALESCE(SUM(cost_usd), 0) AS total FROM agent_runs WHERE runtime IS DISTINCT FROM ?',
          [SCRIPTED_RUNTIME],
        )?.total ?? 0
      );
    },
    failActive(error, at, keep = new Set()) {
      return sql.transaction(() => {
        const active = selectActive().filter((row) => !keep.has(row.session_id));
        for (const row of active)
          sql.run(
            `UPDATE agent_runs SET status = 'failed', failure_reason = 'error', error = ?, ended_at = ?
             WHERE session_id = ? AND ${ACTIVE}`,
            [error, at, row.session_id],
          );
        return active.map((row) => fromRow(selectOne(row.session_id) ?? row));
      });
    },
  };
}
