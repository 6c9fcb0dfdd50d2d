import type { Database } from 'better-sqlite3';
import type {
  ModeReport,
  PlannerResult,
  Proposal,
  ProposalKind,
  ProposalStatus,
} from '../../domain/index.ts';

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

export function createProposalRepository(db: Database): ProposalRepository {
  const upsert = db.prepare(
    `INSERT OR REPLACE INTO proposals (id, kind, status, session_id, spec_shas, base_planned_shas, result,
       revises, created_at, decided_at, decided_by, reason, subject_id, report)
     VALUES (@id, @kind, @status, @session_id, @spec_shas, @base_planned_shas, @result, @revises, @created_at,
       @decided_at, @decided_by, @reason, @subject_id, @report)`,
  );
  const selectAll = db.prepare<[number], ProposalRow>(
    'SELECT * FROM proposals ORDER BY created_at DESC, rowid DESC LIMIT ?',
  );
  const selectByStatus = db.prepare<[string, number], ProposalRow>(
    'SELECT * FROM proposals WHERE status = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
  );
  const selectOne = db.prepare<[string], ProposalRow>('SELECT * FROM proposals WHERE id = ?');
  return {
    save(proposal) {
      upsert.run({
        id: proposal.id,
        kind: proposal.kind,
        status: proposal.status,
        session_id: proposal.sessionID,
        spec_shas: JSON.stringify(proposal.specSHAs),
        base_planned_shas: JSON.stringify(proposal.basePlannedSHAs),
        result: JSON.stringify(proposal.result),
        revises: proposal.revises,
        created_at: proposal.createdAt,
        decided_at: proposal.decidedAt,
        decided_by: proposal.decidedBy,
        reason: proposal.reason,
        subject_id: proposal.subjectID ?? null,
        report: proposal.report == null ? null : JSON.stringify(proposal.report),
      });
    },
    list(query = {}) {
      const limit = query.limit ?? -1;
      const rows =
        query.status === undefined ? selectAll.all(limit) : selectByStatus.all(query.status, limit);
      return rows.map(fromRow);
    },
    get(id) {
      const row = selectOne.get(id);
      return row === undefined ? null : fromRow(row);
    },
  };
}
