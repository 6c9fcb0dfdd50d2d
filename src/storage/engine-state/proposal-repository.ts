import type {
  ModeReport,
  PlannerResult,
  Proposal,
  ProposalKind,
  ProposalStatus,
} from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';
import type { SqlValue } from '../sql/sql-connection.ts';

/** The proposals (migration 012): plans waiting for, or decided by, a human. */
export interface ProposalRepository {
  /** Inserts or replaces the proposal's row (the state's proposal after an event). */
  save(proposal: Proposal): void;
  /** Newest first; only those in `status` when given. */
  list(query?: { status?: ProposalStatus; limit?: number }): Proposal[];
  get(id: string): Proposal | null;
}

interface ProposalRow {
  id: string;
  kind: ProposalKind;
  subject_id: string | null;
  report: string | null;
  status: ProposalStatus;
  session_id: string;
  spec_shas: string;
  base_planned_shas: string;
  result: string;
  revises: string | null;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
  reason: string | null;
}

function fromRow(row: ProposalRow): Proposal {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    sessionID: row.session_id,
    specSHAs: JSON.parse(row.spec_shas) as Record<string, string>,
    basePlannedSHAs: JSON.parse(row.base_planned_shas) as Record<string, string>,
    result: JSON.parse(row.result) as PlannerResult,
    revises: row.revises,
    createdAt: row.created_at,
    decidedAt: row.decided_at,
    decidedBy: row.decided_by,
    reason: row.reason,
    ...(row.subject_id !== null && { subjectID: row.subject_id }),
    ...(row.report !== null && { report: JSON.parse(row.report) as ModeReport }),
  };
}

const COLUMNS = [
  'id',
  'kind',
  'status',
  'session_id',
  'spec_shas',
  'base_planned_shas',
  'result',
  'revises',
  'created_at',
  'decided_at',
  'decided_by',
  'reason',
  'subject_id',
  'report',
] as const;

/** Inserts a proposal or rewrites every column of its row (the SQL both backends accept). */
const UPSERT = `INSERT INTO proposals (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (id) DO UPDATE SET ${COLUMNS.filter((column) => column !== 'id')
    .map((column) => `${column} = excluded.${column}`)
    .join(', ')}`;

export function createProposalRepository(target: SqlTarget): ProposalRepository {
  const sql = asSqlConnection(target);
  return {
    save(proposal) {
      sql.run(UPSERT, [
        proposal.id,
        proposal.kind,
        proposal.status,
        proposal.sessionID,
        JSON.stringify(proposal.specSHAs),
        JSON.stringify(proposal.basePlannedSHAs),
        JSON.stringify(proposal.result),
        proposal.revises,
        proposal.createdAt,
        proposal.decidedAt,
        proposal.decidedBy,
        proposal.reason,
        proposal.subjectID ?? null,
        proposal.report == null ? null : JSON.stringify(proposal.report),
      ]);
    },
    list(query = {}) {
      const params: SqlValue[] = [];
      let where = '';
      if (query.status !== undefined) {
        where = 'WHERE status = ? ';
        params.push(query.status);
      }
      let limit = '';
      if (query.limit !== undefined) {
        limit = ' LIMIT ?';
        params.push(query.limit);
      }
      return sql
        .all<ProposalRow>(
          `SELECT * FROM proposals ${where}ORDER BY created_at DESC, rowid DESC${limit}`,
          params,
        )
        .map(fromRow);
    },
    get(id) {
      const row = sql.get<ProposalRow>('SELECT * FROM proposals WHERE id = ?', [id]);
      return row === undefined ? null : fromRow(row);
    },
  };
}
