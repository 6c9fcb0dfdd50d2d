import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../../test/support/shared/create-temp-dir.ts';
import { STATE_BACKENDS, useStateBackend } from '../../../test/support/storage/use-state-backend.ts';
import { hashText } from '../../shared/hash-text.ts';
import { type Database, openDatabase } from '../open-database.ts';
import { createSqliteConnection } from '../sql/create-sqlite-connection.ts';
import type { SqlConnection } from '../sql/sql-connection.ts';
import { StorageError } from '../storage-error.ts';
import { createSqliteTracker, type SqliteTracker } from './create-sqlite-tracker.ts';

describe.each(STATE_BACKENDS)("the tracker's work items on %s", (backendName) => {
  const backend = useStateBackend(backendName);
  const SHA = 'a'.repeat(40);
  let dir: ReturnType<typeof createTempDir>;
  let path: string;
  let db: Database;
  let sql: SqlConnection;
  let clock: number;
  let tracker: SqliteTracker;

  /** Opens the test's database; `reopen`: as a restarted process does (the same file, a new connection). */
  function open(reopen = false): void {
    db = openDatabase(path);
    sql = (reopen ? backend.reopen() : backend.connection()) ?? createSqliteConnection(db);
    tracker = createSqliteTracker(sql, { now: () => clock });
  }

  function create(title: string, labels: string[] = [], blockedBy: string[] = []) {
    return tracker.workItems.createWorkItem({ title, body: `${title} body`, labels, blockedBy });
  }

  const count = (table: string) => sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)?.n;

  beforeEach(() => {
    dir = createTempDir();
    path = join(dir.path, 'flotilla.db');
    clock = Date.parse('2026-01-02T03:04:05.000Z');
    open();
  });

  afterEach(() => {
    if (db.open) db.close();
    dir.remove();
  });

  describe('work items', () => {
    it('creates items with small integer ids and reads status, kind, priority and complexity from labels', () => {
      const task = create('Add login', ['priority:high', 'complexity:low', 'frontend']);
      expect(task).toEqual({
        id: '1',
        title: 'Add login',
        status: 'pending',
        kind: 'task',
        priority: 'high',
        complexity: 'low',
        blockedBy: [],
        bodyHash: hashText('Add login body'),
        createdAt: '2026-01-02T03:04:05.000Z',
        linkedRevision: null,
      });
      expect(tracker.workItems.getWorkItemLabels('1')).toEqual([
        'task:implement',
        'priority:high',
        'complexity:low',
        'frontend',
      ]);
      const question = create('Which auth?', [
        'task:refinement',
        'complexity:high',
        'status:needs-refinement',
      ]);
      expect(question).toMatchObject({
        id: '2',
        kind: 'refinement',
        complexity: null,
        status: 'needs-refinement',
      });
      expect(tracker.workItems.getWorkItemLabels('2')).not.toContain('task:implement');
    });

    it('keeps blockers, bodies and everything else across a reopen of the file', () => {
      create('A');
      create('B', [], ['1']);
      db.close();
      open(true);
      expect(tracker.workItems.getWorkItem('2')?.blockedBy).toEqual(['1']);
      expect(tracker.workItems.getWorkItemBody('2')).toBe('B body');
      expect(tracker.workItems.listWorkItems().map((item) => item.id)).toEqual(['1', '2']);
    });

    it('refuses an unknown or self blocker and writes nothing (the whole create rolls back)', () => {
      create('A');
      expect(() => create('B', [], ['1', '42'])).toThrow(StorageError);
      expect(() => create('B', [], ['1', '42'])).toThrow(
        'new work item "B": blocker #42 does not exist; expected the id of an existing work item',
      );
      expect(tracker.workItems.listWorkItems({ includeClosed: true }).map((item) => item.id)).toEqual(['1']);
      expect(count('work_item_labels')).toBe(1);
      expect(count('work_item_blockers')).toBe(0);
      // SQLite's id sequence rolled back too: the next item takes the id the failed one would have had.
      // PostgreSQL's sequences are not transactional: the two failed creates used up #2 and #3 (a gap).
      expect(create('C').id).toBe(backendName === 'sqlite' ? '2' : '4');
      const c = backendName === 'sqlite' ? '2' : '4';
      expect(() => tracker.workItems.setBlockedBy(c, [c])).toThrow(`#${c}: it cannot block itself`);
      expect(tracker.workItems.getWorkItem(c)?.blockedBy).toEqual([]);
    });

    it('refuses an empty title', () => {
      expect(() => create('  ')).toThrow('new work item: the title is empty; expected a non-empty title');
    });

    it('returns null for unknown ids and throws a clear error for an unknown body', () => {
      expect(tracker.workItems.getWorkItem('1')).toBeNull();
      expect(tracker.workItems.getWorkItem('abc')).toBeNull();
      expect(tracker.workItems.getWorkItem('01')).toBeNull();
      expect(() => tracker.workItems.getWorkItemBody('42')).toThrow(
        'work item #42 does not exist; expected the id of an existing work item',
      );
    });

    it('does not take a revision id for a work item id', () => {
      create('A');
      tracker.revisions.recordRevision({
        workItemID: '1',
        branchName: 'flotilla/1',
        patch: '',
        headSHA: SHA,
        title: '',
        body: '',
      });
      expect(tracker.workItems.getWorkItem('2')).toBeNull();
      expect(() => tracker.workItems.addComment('2', 'x')).toThrow(/work item #2 does not exist/);
    });

    it('transitions status through the status label; closed leaves the open list, reopening comes back', () => {
      create('A', ['status:ready', 'priority:low']);
      tracker.workItems.transitionStatus('1', 'in-progress');
      expect(tracker.workItems.getWorkItem('1')?.status).toBe('in-progress');
      expect(tracker.workItems.getWorkItemLabels('1')).toEqual([
        'task:implement',
        'priority:low',
        'status:in-progress',
      ]);
      tracker.workItems.transitionStatus('1', 'closed');
      expect(tracker.workItems.listWorkItems()).toEqual([]);
      expect(tracker.workItems.getWorkItem('1')?.status).toBe('closed');
      expect(tracker.workItems.listWorkItems({ includeClosed: true })).toHaveLength(1);
      tracker.workItems.transitionStatus('1', 'pending');
      expect(tracker.workItems.listWorkItems().map((item) => item.status)).toEqual(['pending']);
      expect(() => tracker.workItems.transitionStatus('1', 'done' as never)).toThrow(
        /unknown status "done"; expected one of pending, ready/,
      );
      expect(() => tracker.workItems.transitionStatus('9', 'ready')).toThrow(/work item #9 does not exist/);
    });

    it('closes like a human (labels untouched) and reopens', () => {
      create('A', ['status:approved']);
      tracker.workItems.closeWorkItem('1');
      expect(tracker.workItems.getWorkItem('1')?.status).toBe('closed');
      expect(tracker.workItems.getWorkItemLabels('1')).toContain('status:approved');
      tracker.workItems.reopenWorkItem('1');
      expect(tracker.workItems.getWorkItem('1')?.status).toBe('approved');
    });

    it('updates: null leaves a field alone; labels replace everything but the status and kind', () => {
      create('A', ['task:refinement', 'status:needs-refinement', 'priority:high', 'old']);
      tracker.workItems.updateWorkItem('1', { body: null, labels: null });
      expect(tracker.workItems.getWorkItemBody('1')).toBe('A body');
      tracker.workItems.updateWorkItem('1', {
        body: 'new body',
        labels: ['priority:low', 'status:approved', 'new'],
      });
      expect(tracker.workItems.getWorkItemBody('1')).toBe('new body');
      expect(tracker.workItems.getWorkItemLabels('1')).toEqual([
        'task:refinement',
        'status:needs-refinement',
        'priority:low',
        'new',
      ]);
      tracker.workItems.updateWorkItem('1', { body: null, labels: ['task:implement', 'complexity:trivial'] });
      expect(tracker.workItems.getWorkItem('1')).toMatchObject({
        kind: 'task',
        status: 'needs-refinement',
        priority: null,
        complexity: 'trivial',
      });
      expect(tracker.workItems.getWorkItemBody('1')).toBe('new body');
    });

    it('keeps comments with author and time, oldest first', () => {
      create('A');
      tracker.workItems.addComment('1', 'first');
      clock += 1000;
      tracker.workItems.addComment('1', 'second', 'alice');
      expect(tracker.workItems.getWorkItemComments('1')).toEqual([
        { id: '1', author: 'flotilla', body: 'first', createdAt: '2026-01-02T03:04:05.000Z' },
        { id: '2', author: 'alice', body: 'second', createdAt: '2026-01-02T03:04:06.000Z' },
      ]);
    });

    it('renames and replaces blockers', () => {
      create('A');
      create('B');
      create('C', [], ['1']);
      tracker.workItems.setTitle('3', 'C2');
      tracker.workItems.setBlockedBy('3', ['2', '1']);
      expect(tracker.workItems.getWorkItem('3')).toMatchObject({ title: 'C2', blockedBy: ['2', '1'] });
      expect(() => tracker.workItems.setTitle('3', '')).toThrow(/#3: the title is empty/);
    });

    it('links the lowest-numbered open revision, and unlinks it when it is closed', () => {
      create('A');
      const first = tracker.revisions.recordRevision({
        workItemID: '1',
        branchName: 'flotilla/1',
        patch: '',
        headSHA: SHA,
        title: '',
        body: '',
      });
      const second = tracker.revisions.recordRevision({
        workItemID: '1',
        branchName: 'other',
        patch: '',
        headSHA: SHA,
        title: '',
        body: '',
      });
      expect(tracker.workItems.getWorkItem('1')?.linkedRevision).toBe(first.id);
      tracker.revisions.closeRevision(first.id);
      expect(tracker.workItems.getWorkItem('1')?.linkedRevision).toBe(second.id);
      tracker.revisions.closeRevision(second.id);
      expect(tracker.workItems.getWorkItem('1')?.linkedRevision).toBeNull();
    });
  });
});
