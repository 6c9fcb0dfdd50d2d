import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/support/shared/create-temp-dir.ts';
import { STATE_BACKENDS, useStateBackend } from '../../../test/support/storage/use-state-backend.ts';
import type { AgentReview } from '../../domain/index.ts';
import { type Database, openDatabase } from '../open-database.ts';
import { createSqliteConnection } from '../sql/create-sqlite-connection.ts';
import type { SqlConnection } from '../sql/sql-connection.ts';
import { StorageError } from '../storage-error.ts';
import { createSqliteTracker, type SqliteTracker } from './create-sqlite-tracker.ts';
import type { RecordRevisionInput } from './create-tracker-revisions.ts';

describe.each(STATE_BACKENDS)("the tracker's revisions on %s", (backendName) => {
  const backend = useStateBackend(backendName);
  const SHA1 = '1'.repeat(40);
  const SHA2 = '2'.repeat(40);
  let dir: ReturnType<typeof createTempDir>;
  let path: string;
  let db: Database;
  let sql: SqlConnection;
  let tracker: SqliteTracker;

  /** Opens the test's database; `reopen`: as a restarted process does (the same file, a new connection). */
  function open(reopen = false): void {
    db = openDatabase(path);
    sql = (reopen ? backend.reopen() : backend.connection()) ?? createSqliteConnection(db);
    tracker = createSqliteTracker(sql, { now: () => Date.parse('2026-01-02T00:00:00.000Z') });
  }

  function record(overrides: Partial<RecordRevisionInput> = {}) {
    return tracker.revisions.recordRevision({
      workItemID: '1',
      branchName: 'flotilla/1',
      patch: 'diff --git a/x b/x\n',
      headSHA: SHA1,
      title: '',
      body: 'Closes #1',
      ...overrides,
    });
  }

  const approve: AgentReview = { verdict: 'approve', summary: 'looks good', comments: [] };
  const changes: AgentReview = {
    verdict: 'needs-changes',
    summary: 'fix the test',
    comments: [
      { path: 'src/a.ts', line: 3, body: 'off by one' },
      { path: 'README.md', line: null, body: 'document it' },
    ],
  };

  const count = (table: string) => sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)?.n;

  beforeEach(() => {
    dir = createTempDir();
    path = join(dir.path, 'flotilla.db');
    open();
    tracker.workItems.createWorkItem({ title: 'Add login', body: '', labels: [], blockedBy: [] });
  });

  afterEach(() => {
    if (db.open) db.close();
    dir.remove();
  });

  describe('revisions', () => {
    it('opens a revision for a branch, sharing the id sequence with work items', () => {
      const revision = record();
      expect(revision).toEqual({
        id: '2',
        title: 'Add login',
        url: null,
        headSHA: SHA1,
        headRef: 'flotilla/1',
        author: 'flotilla',
        body: 'Closes #1',
        isDraft: false,
        workItemID: '1',
        pipeline: { status: 'pending', url: null, reason: null },
        reviewID: null,
      });
      expect(
        tracker.workItems.createWorkItem({ title: 'Next', body: '', labels: [], blockedBy: [] }).id,
      ).toBe('3');
      expect(record({ branchName: 'flotilla/x', title: 'Own title' }).title).toBe('Own title');
      expect(tracker.revisions.listRevisions().map((item) => item.id)).toEqual(['2', '4']);
      expect(tracker.revisions.findOpenRevisionByBranch('flotilla/1')?.id).toBe('2');
      expect(tracker.revisions.findOpenRevisionByBranch('nope')).toBeNull();
    });

    it('updates the open revision on a re-push: new head, pending checks, same title and body', () => {
      const first = record();
      tracker.revisions.setPipeline(first.id, SHA1, { status: 'success' });
      expect(tracker.revisions.getRevision(first.id)?.pipeline?.status).toBe('success');
      const again = record({ headSHA: SHA2, patch: 'second', title: 'ignored', body: 'ignored' });
      expect(again).toMatchObject({ id: first.id, headSHA: SHA2, title: 'Add login', body: 'Closes #1' });
      // The old head's success must not show for the new head.
      expect(again.pipeline).toEqual({ status: 'pending', url: null, reason: null });
      expect(tracker.revisions.getRevisionPatch(first.id)).toBe('second');
      expect(
        tracker.revisions.listRevisionPushes(first.id).map((push) => [push.headSHA, push.patch]),
      ).toEqual([
        [SHA1, 'diff --git a/x b/x\n'],
        [SHA2, 'second'],
      ]);
      expect(tracker.revisions.listRevisions()).toHaveLength(1);
    });

    it('keeps pipelines per head SHA; a late result for an older head does not show', () => {
      const revision = record();
      record({ headSHA: SHA2 });
      tracker.revisions.setPipeline(revision.id, SHA1, {
        status: 'failure',
        url: '/logs/checks-1.log',
        reason: 'npm test',
      });
      expect(tracker.revisions.getRevision(revision.id)?.pipeline?.status).toBe('pending');
      expect(tracker.revisions.getPipeline(revision.id, SHA1)).toEqual({
        status: 'failure',
        url: '/logs/checks-1.log',
        reason: 'npm test',
      });
      tracker.revisions.setPipeline(revision.id, SHA2, { status: 'failure' });
      expect(tracker.revisions.getRevision(revision.id)?.pipeline).toEqual({
        status: 'failure',
        url: null,
        reason: 'checks failed',
      });
      // A passed run keeps its log (where to read what ran), not a reason.
      tracker.revisions.setPipeline(revision.id, SHA2, { status: 'success', url: '/x', reason: 'y' });
      expect(tracker.revisions.getPipeline(revision.id)).toEqual({
        status: 'success',
        url: '/x',
        reason: null,
      });
      expect(tracker.revisions.getPipeline(revision.id, '3'.repeat(40))).toBeNull();
      expect(() => tracker.revisions.setPipeline(revision.id, SHA2, { status: 'green' as never })).toThrow(
        /pipeline of revision #2: unknown status "green"; expected one of pending, success, failure/,
      );
    });

    it('refuses an unknown work item, a non-SHA head and an empty branch, writing nothing', () => {
      expect(() => record({ workItemID: '9' })).toThrow(
        'revision for branch flotilla/1: work item #9 does not exist; expected the id of an existing work item',
      );
      expect(() => record({ headSHA: 'HEAD' })).toThrow(/head "HEAD" is not a commit SHA; expected 40/);
      expect(() => record({ branchName: ' ' })).toThrow(/expected a branch name/);
      expect(count('revisions')).toBe(0);
      expect(count('tracker_ids')).toBe(1);
    });

    it('returns null or a clear error for unknown revisions', () => {
      expect(tracker.revisions.getRevision('2')).toBeNull();
      expect(tracker.revisions.getRevision('1')).toBeNull();
      expect(() => tracker.revisions.updateRevisionBody('7', 'x')).toThrow(
        'revision #7 does not exist; expected the id of an existing revision',
      );
    });

    it('closes: the revision leaves the list, and the branch can get a new revision', () => {
      const first = record();
      tracker.revisions.closeRevision(first.id);
      expect(tracker.revisions.getRevisionState(first.id)).toBe('closed');
      expect(tracker.revisions.listRevisions()).toEqual([]);
      expect(tracker.revisions.getRevision(first.id)?.id).toBe(first.id);
      expect(record().id).not.toBe(first.id);
      expect(() => tracker.revisions.closeRevision(first.id)).toThrow(
        `revision #${first.id} is closed; expected an open revision to close`,
      );
    });

    it('lists every revision of a work item, closed and merged ones included, oldest first', () => {
      const closed = record();
      tracker.revisions.closeRevision(closed.id);
      const merged = record({ headSHA: SHA2 });
      tracker.revisions.markRevisionMerged(merged.id, { closeWorkItem: false });
      expect(tracker.revisions.listWorkItemRevisions('1').map((revision) => revision.id)).toEqual([
        closed.id,
        merged.id,
      ]);
      expect(tracker.revisions.listWorkItemRevisions('9')).toEqual([]);
      expect(tracker.revisions.listWorkItemRevisions('x')).toEqual([]);
    });

    it('merges and closes the work item in one go, unless asked not to', () => {
      const revision = record();
      tracker.revisions.markRevisionMerged(revision.id);
      expect(tracker.revisions.getRevisionState(revision.id)).toBe('merged');
      expect(tracker.workItems.getWorkItem('1')?.status).toBe('closed');
      expect(() => tracker.revisions.markRevisionMerged(revision.id)).toThrow(
        /is merged; expected an open revision to merge/,
      );

      tracker.workItems.transitionStatus('1', 'approved');
      const other = record({ branchName: 'flotilla/1-b' });
      tracker.revisions.markRevisionMerged(other.id, { closeWorkItem: false });
      expect(tracker.workItems.getWorkItem('1')?.status).toBe('approved');
    });

    it('updates the body and keeps comments', () => {
      const revision = record();
      tracker.revisions.updateRevisionBody(revision.id, 'Closes #1\n\nsummary');
      tracker.revisions.postComment(revision.id, 'checks passed');
      tracker.revisions.postComment(revision.id, 'thanks', 'bob');
      expect(tracker.revisions.getRevision(revision.id)?.body).toBe('Closes #1\n\nsummary');
      expect(
        tracker.revisions.listComments(revision.id).map((comment) => [comment.author, comment.body]),
      ).toEqual([
        ['flotilla', 'checks passed'],
        ['bob', 'thanks'],
      ]);
    });
  });

  describe('reviews', () => {
    it('posts the engine review with inline comments; replacing it dismisses the earlier one', () => {
      const revision = record();
      const first = tracker.revisions.postReview(revision.id, changes);
      expect(Number(first)).toBeGreaterThan(1_000_000);
      expect(tracker.revisions.getRevision(revision.id)?.reviewID).toBe(first);
      const second = tracker.revisions.updateReview(revision.id, first, approve);
      expect(second).not.toBe(first);
      expect(tracker.revisions.getRevision(revision.id)?.reviewID).toBe(second);
      // Dismissed as on GitHub, yet what it said and its round are kept.
      expect(
        tracker.revisions
          .listReviews(revision.id)
          .map((review) => [review.id, review.state, review.verdict, review.round]),
      ).toEqual([
        [first, 'DISMISSED', 'CHANGES_REQUESTED', 1],
        [second, 'APPROVED', 'APPROVED', 2],
      ]);
      expect(tracker.revisions.getReviewHistory(revision.id)).toEqual({
        reviews: [
          { author: 'flotilla', state: 'DISMISSED', verdict: 'CHANGES_REQUESTED', body: 'fix the test' },
          { author: 'flotilla', state: 'APPROVED', verdict: 'APPROVED', body: 'looks good' },
        ],
        inlineComments: [
          { path: 'src/a.ts', line: 3, author: 'flotilla', body: 'off by one' },
          { path: 'README.md', line: null, author: 'flotilla', body: 'document it' },
        ],
      });
    });

    it('keeps a human review without making it the engine review', () => {
      const revision = record();
      const id = tracker.revisions.addReview(revision.id, {
        author: 'alice',
        state: 'COMMENTED',
        body: 'hmm',
      });
      expect(tracker.revisions.getRevision(revision.id)?.reviewID).toBeNull();
      expect(tracker.revisions.listReviews(revision.id)).toMatchObject([
        { id, author: 'alice', state: 'COMMENTED' },
      ]);
      expect(() =>
        tracker.revisions.addReview(revision.id, { author: 'alice', state: 'LGTM' as never, body: '' }),
      ).toThrow(/unknown state "LGTM"/);
    });

    it('rolls a review back whole when one of its comments is bad', () => {
      const revision = record();
      const bad: AgentReview = {
        verdict: 'needs-changes',
        summary: 'x',
        comments: [
          { path: 'a.ts', line: 1, body: 'fine' },
          { path: 'b.ts', line: 0, body: 'bad line' },
        ],
      };
      expect(() => tracker.revisions.postReview(revision.id, bad)).toThrow(StorageError);
      expect(() => tracker.revisions.postReview(revision.id, bad)).toThrow(
        'review on revision #2: comment 2 (b.ts) has line 0; expected a positive integer or null',
      );
      expect(tracker.revisions.listReviews(revision.id)).toEqual([]);
      expect(tracker.revisions.getRevision(revision.id)?.reviewID).toBeNull();
      expect(count('review_comments')).toBe(0);

      // A failed replacement leaves the earlier review in place, not dismissed.
      const good = tracker.revisions.postReview(revision.id, approve);
      expect(() => tracker.revisions.updateReview(revision.id, good, bad)).toThrow(StorageError);
      expect(tracker.revisions.listReviews(revision.id).map((review) => review.state)).toEqual(['APPROVED']);
      expect(tracker.revisions.getRevision(revision.id)?.reviewID).toBe(good);
    });

    it('refuses to replace an unknown review or to review a closed revision', () => {
      const revision = record();
      expect(() => tracker.revisions.updateReview(revision.id, '1000999', approve)).toThrow(
        `review 1000999 does not exist on revision #${revision.id}; expected the id of a review on that revision`,
      );
      tracker.revisions.closeRevision(revision.id);
      expect(() => tracker.revisions.postReview(revision.id, approve)).toThrow(
        /is closed; expected an open revision to review/,
      );
    });

    it('keeps reviews across a reopen of the file', () => {
      const revision = record();
      const id = tracker.revisions.postReview(revision.id, changes);
      db.close();
      open(true);
      expect(tracker.revisions.getRevision(revision.id)?.reviewID).toBe(id);
      expect(tracker.revisions.getReviewHistory(revision.id).inlineComments).toHaveLength(2);
      expect(Number(tracker.revisions.postReview(revision.id, approve))).toBe(Number(id) + 1);
    });
  });
});
