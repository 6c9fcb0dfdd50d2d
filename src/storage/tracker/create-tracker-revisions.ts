import type {
  AgentReview,
  AgentReviewComment,
  Pipeline,
  PipelineStatus,
  ReviewHistory,
  Revision,
} from '../../domain/index.ts';
import { reviewStateForVerdict } from '../../domain/index.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';
import type { SqlValue } from '../sql/sql-connection.ts';
import { StorageError } from '../storage-error.ts';
import type { TrackerComment, TrackerWorkItems } from './create-tracker-work-items.ts';
import { parseTrackerID } from './parse-tracker-id.ts';
import { isoAt, type TrackerClock } from './tracker-clock.ts';

export type RevisionState = 'open' | 'closed' | 'merged';
export type ReviewState = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';
const REVIEW_STATES: readonly ReviewState[] = ['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED'];
const PIPELINE_STATUSES: readonly PipelineStatus[] = ['pending', 'success', 'failure'];

export interface RecordRevisionInput {
  workItemID: string;
  branchName: string;
  /** The patch that was applied to the branch (kept for the file listing and the record). */
  patch: string;
  /** The branch's head commit after the patch was applied. */
  headSHA: string;
  /** Empty: the work item's title. */
  title: string;
  body: string;
  /** Default: the tracker's engine author. */
  author?: string;
}

export interface StoredReview {
  id: string;
  author: string;
  /** `DISMISSED` once a later review replaced it (as on GitHub); `verdict` keeps what it said. */
  state: ReviewState;
  /** The state it was posted with; null only for a review dismissed before migration 010. */
  verdict: Exclude<ReviewState, 'DISMISSED'> | null;
  /** 1, 2, … among the revision's verdicts (approved or changes requested); null for a comment. */
  round: number | null;
  body: string;
  comments: AgentReviewComment[];
  createdAt: string;
}

export interface HumanReviewInput {
  author: string;
  state: ReviewState;
  body: string;
  comments?: AgentReviewComment[];
}

export interface RevisionPush {
  headSHA: string;
  patch: string;
  pushedAt: string;
}

export interface PipelineInput {
  status: PipelineStatus;
  /** Where the checks' log is; kept only for a failure, like the domain's Pipeline. */
  url?: string | null;
  /** First failing check; default "checks failed" for a failure. */
  reason?: string | null;
}

export interface TrackerRevisions {
  /**
   * Records a push of `branchName`: the open revision for the branch gets the new head (its title and body
   * stay, like a pull request), otherwise a new revision is opened. The new head's pipeline starts pending.
   */
  recordRevision(input: RecordRevisionInput): Revision;
  findOpenRevisionByBranch(branchName: string): Revision | null;
  /** Any revision, closed and merged ones included; null for an unknown id. */
  getRevision(id: string): Revision | null;
  getRevisionState(id: string): RevisionState;
  /** Open revisions, lowest id first. */
  listRevisions(): Revision[];
  /** Every revision of a work item (open, closed and merged), oldest first; the CLI's merged-item lookups. */
  listWorkItemRevisions(workItemID: string): Revision[];
  /** The latest patch pushed. */
  getRevisionPatch(id: string): string;
  /** Every push, oldest first. */
  listRevisionPushes(id: string): RevisionPush[];
  updateRevisionBody(id: string, body: string): void;
  /** The checks result for one head SHA; a result for an older head is kept but does not show. */
  setPipeline(id: string, headSHA: string, pipeline: PipelineInput): void;
  /** The pipeline of `headSHA` (default: the current head); null when none was recorded for it. */
  getPipeline(id: string, headSHA?: string): Pipeline | null;
  /** Closes without merging: the revision leaves listRevisions and unlinks from its work item. */
  closeRevision(id: string): void;
  /** Marks it merged and (unless `closeWorkItem` is false) closes its work item, in one transaction. */
  markRevisionMerged(id: string, options?: { closeWorkItem?: boolean }): void;
  /** The engine's review; becomes the revision's `reviewID`. Returns the review id. */
  postReview(id: string, review: AgentReview): string;
  /** Dismisses the engine's earlier review `reviewID`, then posts the new one. Returns the new id. */
  updateReview(id: string, reviewID: string, review: AgentReview): string;
  /** A review by someone else (a human through the CLI); does not change `reviewID`. */
  addReview(id: string, review: HumanReviewInput): string;
  listReviews(id: string): StoredReview[];
  getReviewHistory(id: string): ReviewHistory;
  postComment(id: string, body: string, author?: string): void;
  listComments(id: string): TrackerComment[];
}

interface RevisionRow {
  id: number;
  work_item_id: number | null;
  branch_name: string;
  title: string;
  body: string;
  author: string;
  is_draft: 0 | 1;
  head_sha: string;
  state: RevisionState;
  review_id: number | null;
}

interface PipelineRow {
  status: PipelineStatus;
  url: string | null;
  reason: string | null;
}

export function createTrackerRevisions(
  target: SqlTarget,
  options: { now: TrackerClock; engineAuthor: string; workItems: TrackerWorkItems },
): TrackerRevisions {
  const sql = asSqlConnection(target);
  const run =
    (text: string) =>
    (...params: SqlValue[]): void =>
      sql.run(text, params);
  const statements = {
    newID: () =>
      Number(sql.get<{ id: number }>("INSERT INTO tracker_ids (kind) VALUES ('revision') RETURNING id")?.id),
    insert: run(`
      INSERT INTO revisions (id, work_item_id, branch_name, title, body, author, is_draft, head_sha, state,
        review_id, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, 0, ?, 'open', NULL, ?, ?)
    `),
    select: (id: number) => sql.get<RevisionRow>('SELECT * FROM revisions WHERE id = ?', [id]),
    selectOpen: () => sql.all<RevisionRow>("SELECT * FROM revisions WHERE state = 'open' ORDER BY id"),
    selectByWorkItem: (id: number) =>
      sql.all<RevisionRow>('SELECT * FROM revisions WHERE work_item_id = ? ORDER BY id', [id]),
    selectOpenByBranch: (branch: string) =>
      sql.get<RevisionRow>("SELECT * FROM revisions WHERE branch_name = ? AND state = 'open'", [branch]),
    setHead: run('UPDATE revisions SET head_sha = ?, updated_at = ? WHERE id = ?'),
    setBody: run('UPDATE revisions SET body = ?, updated_at = ? WHERE id = ?'),
    setState: run('UPDATE revisions SET state = ?, updated_at = ? WHERE id = ?'),
    setReviewID: run('UPDATE revisions SET review_id = ?, updated_at = ? WHERE id = ?'),
    insertPush: run(
      'INSERT INTO revision_pushes (revision_id, head_sha, patch, pushed_at) VALUES (?, ?, ?, ?)',
    ),
    pushes: (id: number) =>
      sql.all<{ head_sha: string; patch: string; pushed_at: string }>(
        'SELECT head_sha, patch, pushed_at FROM revision_pushes WHERE revision_id = ? ORDER BY id',
        [id],
      ),
    upsertPipeline: run(`
      INSERT INTO pipelines (revision_id, head_sha, status, url, reason, updated_at) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (revision_id, head_sha) DO UPDATE SET
        status = excluded.status, url = excluded.url, reason = excluded.reason, updated_at = excluded.updated_at
    `),
    insertPendingPipeline: run(`
      INSERT INTO pipelines (revision_id, head_sha, status, url, reason, updated_at)
      VALUES (?, ?, 'pending', NULL, NULL, ?)
      ON CONFLICT (revision_id, head_sha) DO NOTHING
    `),
    pipeline: (id: number, headSHA: string) =>
      sql.get<PipelineRow>(
        'SELECT status, url, reason FROM pipelines WHERE revision_id = ? AND head_sha = ?',
        [id, headSHA],
      ),
    insertReview: (...params: SqlValue[]) =>
      Number(
        sql.get<{ id: number }>(
          'INSERT INTO reviews (revision_id, author, state, verdict, body, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id',
          params,
        )?.id,
      ),
    review: (id: number, revisionID: number) =>
      sql.get<{ id: number; state: ReviewState }>(
        'SELECT id, state FROM reviews WHERE id = ? AND revision_id = ?',
        [id, revisionID],
      ),
    dismissReview: run("UPDATE reviews SET state = 'DISMISSED' WHERE id = ?"),
    reviews: (id: number) =>
      sql.all<{
        id: number;
        author: string;
        state: ReviewState;
        verdict: Exclude<ReviewState, 'DISMISSED'> | null;
        body: string;
        created_at: string;
      }>(
        'SELECT id, author, state, verdict, body, created_at FROM reviews WHERE revision_id = ? ORDER BY id',
        [id],
      ),
    insertReviewComment: run('INSERT INTO review_comments (review_id, path, line, body) VALUES (?, ?, ?, ?)'),
    reviewComments: (id: number) =>
      sql.all<{ path: string; line: number | null; body: string }>(
        'SELECT path, line, body FROM review_comments WHERE review_id = ? ORDER BY id',
        [id],
      ),
    insertComment: run(
      'INSERT INTO revision_comments (revision_id, author, body, created_at) VALUES (?, ?, ?, ?)',
    ),
    comments: (id: number) =>
      sql.all<{ id: number; author: string; body: string; created_at: string }>(
        'SELECT id, author, body, created_at FROM revision_comments WHERE revision_id = ? ORDER BY id',
        [id],
      ),
  };

  function find(id: string): RevisionRow | null {
    const rowID = parseTrackerID(id);
    return rowID === null ? null : (statements.select(rowID) ?? null);
  }

  function requireRow(id: string): RevisionRow {
    const row = find(id);
    if (row === null)
      throw new StorageError(`revision #${id} does not exist; expected the id of an existing revision`);
    return row;
  }

  function requireOpen(id: string, action: string): RevisionRow {
    const row = requireRow(id);
    if (row.state !== 'open') {
      throw new StorageError(`revision #${id} is ${row.state}; expected an open revision to ${action}`);
    }
    return row;
  }

  function pipelineOf(rowID: number, headSHA: string): Pipeline | null {
    const row = statements.pipeline(rowID, headSHA);
    return row === undefined ? null : { status: row.status, url: row.url, reason: row.reason };
  }

  function toRevision(row: RevisionRow): Revision {
    return {
      id: String(row.id),
      title: row.title,
      url: null,
      headSHA: row.head_sha,
      headRef: row.branch_name,
      author: row.author,
      body: row.body,
      isDraft: row.is_draft === 1,
      workItemID: row.work_item_id === null ? null : String(row.work_item_id),
      // No result recorded for this head yet means its checks have not finished: pending, never the
      // previous head's result (a null would make the engine keep the last known pipeline).
      pipeline: pipelineOf(row.id, row.head_sha) ?? { status: 'pending', url: null, reason: null },
      reviewID: row.review_id === null ? null : String(row.review_id),
    };
  }

  function push(rowID: number, headSHA: string, patch: string, at: string): void {
    statements.setHead(headSHA, at, rowID);
    statements.insertPush(rowID, headSHA, patch, at);
    statements.insertPendingPipeline(rowID, headSHA, at);
  }

  function insertReview(row: RevisionRow, review: HumanReviewInput): number {
    if (!REVIEW_STATES.includes(review.state)) {
      throw new StorageError(
        `review on revision #${row.id}: unknown state "${review.state}"; expected one of ${REVIEW_STATES.join(', ')}`,
      );
    }
    const reviewID = statements.insertReview(
      row.id,
      review.author,
      review.state,
      review.state === 'DISMISSED' ? null : review.state,
      review.body,
      isoAt(options.now),
    );
    // Written one by one after the review: a bad comment rolls the whole review back (callers are
    // transactions), so a review is never stored with part of its comments.
    (review.comments ?? []).forEach((comment, index) => {
      if (comment.line !== null && (!Number.isInteger(comment.line) || comment.line < 1)) {
        throw new StorageError(
          `review on revision #${row.id}: comment ${index + 1} (${comment.path}) has line ${comment.line}; ` +
            'expected a positive integer or null',
        );
      }
      if (comment.path.trim() === '') {
        throw new StorageError(
          `review on revision #${row.id}: comment ${index + 1} has an empty path; expected a file path`,
        );
      }
      statements.insertReviewComment(reviewID, comment.path, comment.line, comment.body);
    });
    return reviewID;
  }

  function postEngineReview(row: RevisionRow, review: AgentReview): string {
    const reviewID = insertReview(row, {
      author: options.engineAuthor,
      state: reviewStateForVerdict(review.verdict),
      body: review.summary,
      comments: review.comments,
    });
    statements.setReviewID(reviewID, isoAt(options.now), row.id);
    return String(reviewID);
  }

  function listReviews(id: string): StoredReview[] {
    const row = requireRow(id);
    let rounds = 0;
    return statements.reviews(row.id).map((review) => ({
      id: String(review.id),
      author: review.author,
      state: review.state,
      verdict: review.verdict,
      // A verdict review starts a round; one dismissed before migration 010 most likely was one too.
      round: review.verdict === 'COMMENTED' ? null : ++rounds,
      body: review.body,
      createdAt: review.created_at,
      comments: statements.reviewComments(review.id),
    }));
  }

  return {
    recordRevision: (input: RecordRevisionInput): Revision =>
      sql.transaction(() => {
        const workItem = options.workItems.getWorkItem(input.workItemID);
        if (workItem === null) {
          throw new StorageError(
            `revision for branch ${input.branchName}: work item #${input.workItemID} does not exist; ` +
              'expected the id of an existing work item',
          );
        }
        if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(input.headSHA)) {
          throw new StorageError(
            `revision for branch ${input.branchName}: head "${input.headSHA}" is not a commit SHA; ` +
              'expected 40 (or 64) lowercase hex digits',
          );
        }
        if (input.branchName.trim() === '') {
          throw new StorageError(
            `revision for work item #${input.workItemID}: expected a branch name, got ""`,
          );
        }
        const at = isoAt(options.now);
        const existing = statements.selectOpenByBranch(input.branchName);
        if (existing !== undefined) {
          push(existing.id, input.headSHA, input.patch, at);
          return toRevision(requireRow(String(existing.id)));
        }
        const rowID = statements.newID();
        statements.insert(
          rowID,
          Number(workItem.id),
          input.branchName,
          input.title !== '' ? input.title : workItem.title,
          input.body,
          input.author ?? options.engineAuthor,
          input.headSHA,
          at,
          at,
        );
        push(rowID, input.headSHA, input.patch, at);
        return toRevision(requireRow(String(rowID)));
      }),
    findOpenRevisionByBranch(branchName) {
      const row = statements.selectOpenByBranch(branchName);
      return row === undefined ? null : toRevision(row);
    },
    getRevision(id) {
      const row = find(id);
      return row === null ? null : toRevision(row);
    },
    getRevisionState(id) {
      return requireRow(id).state;
    },
    listRevisions() {
      return sql.transaction(() => statements.selectOpen().map(toRevision));
    },
    listWorkItemRevisions(workItemID) {
      const rowID = parseTrackerID(workItemID);
      if (rowID === null) return [];
      return sql.transaction(() => statements.selectByWorkItem(rowID).map(toRevision));
    },
    getRevisionPatch(id) {
      const pushes = statements.pushes(requireRow(id).id);
      return pushes.at(-1)?.patch ?? '';
    },
    listRevisionPushes(id) {
      return statements.pushes(requireRow(id).id).map((row) => ({
        headSHA: row.head_sha,
        patch: row.patch,
        pushedAt: row.pushed_at,
      }));
    },
    updateRevisionBody(id, body) {
      statements.setBody(body, isoAt(options.now), requireRow(id).id);
    },
    setPipeline(id, headSHA, pipeline) {
      const row = requireRow(id);
      if (!PIPELINE_STATUSES.includes(pipeline.status)) {
        throw new StorageError(
          `pipeline of revision #${id}: unknown status "${pipeline.status}"; expected one of ` +
            PIPELINE_STATUSES.join(', '),
        );
      }
      const failed = pipeline.status === 'failure';
      statements.upsertPipeline(
        row.id,
        headSHA,
        pipeline.status,
        // Passed checks keep their log too: it is where to read what ran (issue 15 §8).
        pipeline.status === 'pending' ? null : (pipeline.url ?? null),
        failed ? (pipeline.reason ?? 'checks failed') : null,
        isoAt(options.now),
      );
    },
    getPipeline(id, headSHA) {
      const row = requireRow(id);
      return pipelineOf(row.id, headSHA ?? row.head_sha);
    },
    closeRevision(id) {
      statements.setState('closed', isoAt(options.now), requireOpen(id, 'close').id);
    },
    markRevisionMerged: (id: string, mergeOptions: { closeWorkItem?: boolean } = {}) =>
      sql.transaction(() => {
        const row = requireOpen(id, 'merge');
        statements.setState('merged', isoAt(options.now), row.id);
        if (row.work_item_id !== null && mergeOptions.closeWorkItem !== false) {
          options.workItems.transitionStatus(String(row.work_item_id), 'closed');
        }
      }),
    postReview: (id, review) => sql.transaction(() => postEngineReview(requireOpen(id, 'review'), review)),
    updateReview: (id: string, reviewID: string, review: AgentReview) =>
      sql.transaction(() => {
        const row = requireOpen(id, 'review');
        const earlierID = parseTrackerID(reviewID);
        const earlier = earlierID === null ? undefined : statements.review(earlierID, row.id);
        if (earlier === undefined) {
          throw new StorageError(
            `review ${reviewID} does not exist on revision #${id}; expected the id of a review on that revision`,
          );
        }
        // Like the GitHub provider: dismiss the earlier review, then post the new one.
        statements.dismissReview(earlier.id);
        return postEngineReview(row, review);
      }),
    addReview: (id, review) => sql.transaction(() => String(insertReview(requireRow(id), review))),
    listReviews: (id) => sql.transaction(() => listReviews(id)),
    getReviewHistory(id) {
      const reviews = sql.transaction(() => listReviews(id));
      return {
        reviews: reviews.map(({ author, state, body, verdict }) => ({
          author,
          state,
          body,
          ...(verdict !== null && { verdict }),
        })),
        inlineComments: reviews.flatMap((review) =>
          review.comments.map((comment) => ({
            path: comment.path,
            line: comment.line,
            author: review.author,
            body: comment.body,
          })),
        ),
      };
    },
    postComment(id, body, author = options.engineAuthor) {
      statements.insertComment(requireRow(id).id, author, body, isoAt(options.now));
    },
    listComments(id) {
      return statements.comments(requireRow(id).id).map((row) => ({
        id: String(row.id),
        author: row.author,
        body: row.body,
        createdAt: row.created_at,
      }));
    },
  };
}
