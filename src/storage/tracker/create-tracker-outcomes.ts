import type { PipelineStatus, WorkItem } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';
import type { ReviewState, RevisionState } from './create-tracker-revisions.ts';
import type { TrackerWorkItems } from './create-tracker-work-items.ts';

/** A work item with the history of all its revisions: what `flotilla stats` measures outcomes from. */
export interface TrackerItemOutcome {
  workItem: WorkItem;
  /** Oldest first. `updatedAt` of a merged revision is when the merge was recorded. */
  revisions: { id: string; state: RevisionState; updatedAt: string }[];
  /** Every review on those revisions, oldest first (dismissed ones included). */
  reviews: { revisionID: string; author: string; state: ReviewState; createdAt: string }[];
  /** One checks result per head of those revisions, oldest first. */
  pipelines: { revisionID: string; headSHA: string; status: PipelineStatus; updatedAt: string }[];
}

export interface TrackerOutcomes {
  /** Every work item, closed ones included, with its revisions, reviews and checks results. Read only. */
  listItemOutcomes(): TrackerItemOutcome[];
}

interface RevisionRow {
  id: number;
  work_item_id: number;
  state: RevisionState;
  updated_at: string;
}

interface ReviewRow {
  revision_id: number;
  work_item_id: number;
  author: string;
  state: ReviewState;
  created_at: string;
}

interface PipelineRow {
  revision_id: number;
  work_item_id: number;
  head_sha: string;
  status: PipelineStatus;
  updated_at: string;
}

/** Reads the tracker's history in four queries (not one per item), in one read transaction. */
export function createTrackerOutcomes(target: SqlTarget, workItems: TrackerWorkItems): TrackerOutcomes {
  const sql = asSqlConnection(target);
  const statements = {
    revisions: () =>
      sql.all<RevisionRow>(
        'SELECT id, work_item_id, state, updated_at FROM revisions WHERE work_item_id IS NOT NULL ORDER BY id',
      ),
    reviews: () =>
      sql.all<ReviewRow>(`
      SELECT reviews.revision_id, revisions.work_item_id, reviews.author, reviews.state, reviews.created_at
      FROM reviews JOIN revisions ON revisions.id = reviews.revision_id
      WHERE revisions.work_item_id IS NOT NULL ORDER BY reviews.id`),
    pipelines: () =>
      sql.all<PipelineRow>(`
      SELECT pipelines.revision_id, revisions.work_item_id, pipelines.head_sha, pipelines.status,
        pipelines.updated_at
      FROM pipelines JOIN revisions ON revisions.id = pipelines.revision_id
      WHERE revisions.work_item_id IS NOT NULL ORDER BY pipelines.updated_at, pipelines.rowid`),
  };
  return {
    listItemOutcomes: () =>
      sql.transaction(() => {
        const outcomes = new Map<string, TrackerItemOutcome>();
        for (const workItem of workItems.listWorkItems({ includeClosed: true })) {
          outcomes.set(workItem.id, { workItem, revisions: [], reviews: [], pipelines: [] });
        }
        for (const row of statements.revisions()) {
          outcomes.get(String(row.work_item_id))?.revisions.push({
            id: String(row.id),
            state: row.state,
            updatedAt: row.updated_at,
          });
        }
        for (const row of statements.reviews()) {
          outcomes.get(String(row.work_item_id))?.reviews.push({
            revisionID: String(row.revision_id),
            author: row.author,
            state: row.state,
            createdAt: row.created_at,
          });
        }
        for (const row of statements.pipelines()) {
          outcomes.get(String(row.work_item_id))?.pipelines.push({
            revisionID: String(row.revision_id),
            headSHA: row.head_sha,
            status: row.status,
            updatedAt: row.updated_at,
          });
        }
        return [...outcomes.values()];
      }),
  };
}
