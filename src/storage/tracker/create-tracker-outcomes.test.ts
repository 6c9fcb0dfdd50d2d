import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/support/shared/create-temp-dir.ts';
import { STATE_BACKENDS, useStateBackend } from '../../../test/support/storage/use-state-backend.ts';
import { type Database, openDatabase } from '../open-database.ts';
import { createSqliteConnection } from '../sql/create-sqlite-connection.ts';
import type { SqlConnection } from '../sql/sql-connection.ts';
import { createSqliteTracker, type SqliteTracker } from './create-sqlite-tracker.ts';

describe.each(STATE_BACKENDS)("the tracker's outcomes on %s", (backendName) => {
  const backend = useStateBackend(backendName);
  const SHA1 = '1'.repeat(40);
  const SHA2 = '2'.repeat(40);
  const SHA3 = '3'.repeat(40);
  let dir: ReturnType<typeof createTempDir>;
  let db: Database;
  let tracker: SqliteTracker;
  let clock = 0;
  const iso = (ms: number) => new Date(ms).toISOString();

  beforeEach(() => {
    dir = createTempDir();
    db = openDatabase(join(dir.path, 'flotilla.db'));
    clock = Date.parse('2026-11-20T10:00:00.000Z');
    tracker = createSqliteTracker(backend.connection() ?? db, { now: () => clock });
  });

  afterEach(() => {
    db.close();
    dir.remove();
  });

  describe('tracker outcomes', () => {
    it('lists every item, closed ones too, with its revisions, reviews and checks per head in order', () => {
      const { workItems, revisions, outcomes } = tracker;
      const first = workItems.createWorkItem({ title: 'Login', body: '', labels: [], blockedBy: [] });
      const second = workItems.createWorkItem({ title: 'Logout', body: '', labels: [], blockedBy: [] });
      const push = (sha: string, workItemID = first.id) =>
        revisions.recordRevision({
          workItemID,
          branchName: `flotilla/${workItemID}`,
          patch: '',
          headSHA: sha,
          title: '',
          body: '',
        });
      const revision = push(SHA1);
      clock += 1_000;
      revisions.setPipeline(revision.id, SHA1, { status: 'failure' });
      const changes = revisions.postReview(revision.id, {
        verdict: 'needs-changes',
        summary: 'no',
        comments: [],
      });
      clock += 1_000;
      push(SHA2);
      clock += 1_000;
      revisions.setPipeline(revision.id, SHA2, { status: 'success' });
      revisions.updateReview(revision.id, changes, { verdict: 'approve', summary: 'ok', comments: [] });
      revisions.addReview(revision.id, { author: 'Ada', state: 'COMMENTED', body: 'nice' });
      workItems.transitionStatus(first.id, 'approved');
      clock += 1_000;
      revisions.markRevisionMerged(revision.id);
      push(SHA3, second.id);

      const [one, two] = outcomes.listItemOutcomes();
      expect(one?.workItem).toMatchObject({ id: first.id, title: 'Login', status: 'closed' });
      expect(one?.revisions).toEqual([{ id: revision.id, state: 'merged', updatedAt: iso(clock) }]);
      expect(one?.reviews.map(({ author, state }) => [author, state])).toEqual([
        ['flotilla', 'DISMISSED'],
        ['flotilla', 'APPROVED'],
        ['Ada', 'COMMENTED'],
      ]);
      expect(one?.reviews[0]?.createdAt).toBe(iso(clock - 3_000));
      expect(one?.pipelines.map(({ headSHA, status }) => [headSHA, status])).toEqual([
        [SHA1, 'failure'],
        [SHA2, 'success'],
      ]);
      expect(two?.workItem.id).toBe(second.id);
      expect(two?.pipelines.map(({ headSHA, status }) => [headSHA, status])).toEqual([[SHA3, 'pending']]);
      expect(two?.reviews).toEqual([]);
    });

    it('is empty for an empty tracker', () => {
      expect(tracker.outcomes.listItemOutcomes()).toEqual([]);
    });
  });
});
