import {
  type CreateWorkItemInput,
  parseWorkItemLabels,
  WORK_ITEM_STATUSES,
  type WorkItem,
  type WorkItemStatus,
} from '../../domain/index.ts';
import { hashText } from '../../shared/hash-text.ts';
import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';
import type { SqlValue } from '../sql/sql-connection.ts';
import { StorageError } from '../storage-error.ts';
import { parseTrackerID } from './parse-tracker-id.ts';
import { isoAt, type TrackerClock } from './tracker-clock.ts';

export interface TrackerComment {
  id: string;
  author: string;
  body: string;
  createdAt: string;
}

export interface WorkItemUpdate {
  /** Null: unchanged. */
  body: string | null;
  /** Null: unchanged. Replaces every label except the status (and the kind, unless a `task:*` is given). */
  labels: string[] | null;
}

export interface TrackerWorkItems {
  /** Adds `task:implement` unless a `task:*` label is given, like the GitHub provider. */
  createWorkItem(input: CreateWorkItemInput): WorkItem;
  /** Any work item, closed ones included; null for an unknown id. */
  getWorkItem(id: string): WorkItem | null;
  /** Open items, oldest first; `includeClosed` adds the closed ones. */
  listWorkItems(options?: { includeClosed?: boolean }): WorkItem[];
  /** Throws for an unknown id. */
  getWorkItemBody(id: string): string;
  /** The full label set, reserved labels included. */
  getWorkItemLabels(id: string): string[];
  getWorkItemComments(id: string): TrackerComment[];
  /** Replaces the status label; `closed` also closes the item, any other status reopens it. */
  transitionStatus(id: string, status: WorkItemStatus): void;
  updateWorkItem(id: string, update: WorkItemUpdate): void;
  setTitle(id: string, title: string): void;
  /** Replaces the dependency list; every blocker must be an existing work item other than this one. */
  setBlockedBy(id: string, blockedBy: string[]): void;
  addComment(id: string, body: string, author?: string): void;
  /** Closes the item without touching its labels (as a human closing an issue). */
  closeWorkItem(id: string): void;
  reopenWorkItem(id: string): void;
}

interface WorkItemRow {
  id: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  created_at: string;
}

const STATUS_PREFIX = 'status:';
const KIND_PREFIX = 'task:';

export function createTrackerWorkItems(
  target: SqlTarget,
  options: { now: TrackerClock; engineAuthor: string },
): TrackerWorkItems {
  const sql = asSqlConnection(target);
  const statements = {
    newID: () =>
      Number(sql.get<{ id: number }>("INSERT INTO tracker_ids (kind) VALUES ('work-item') RETURNING id")?.id),
    insert: (...params: SqlValue[]) =>
      sql.run(
        "INSERT INTO work_items (id, title, body, state, created_at, updated_at) VALUES (?, ?, ?, 'open', ?, ?)",
        params,
      ),
    select: (id: number) => sql.get<WorkItemRow>('SELECT * FROM work_items WHERE id = ?', [id]),
    selectOpen: () => sql.all<WorkItemRow>("SELECT * FROM work_items WHERE state = 'open' ORDER BY id"),
    selectAll: () => sql.all<WorkItemRow>('SELECT * FROM work_items ORDER BY id'),
    labels: (id: number) =>
      sql.all<{ label: string }>(
        'SELECT label FROM work_item_labels WHERE work_item_id = ? ORDER BY position',
        [id],
      ),
    deleteLabels: (id: number) => sql.run('DELETE FROM work_item_labels WHERE work_item_id = ?', [id]),
    insertLabel: (...params: SqlValue[]) =>
      sql.run('INSERT INTO work_item_labels (work_item_id, label, position) VALUES (?, ?, ?)', params),
    blockers: (id: number) =>
      sql.all<{ blocker_id: number }>(
        'SELECT blocker_id FROM work_item_blockers WHERE work_item_id = ? ORDER BY position',
        [id],
      ),
    deleteBlockers: (id: number) => sql.run('DELETE FROM work_item_blockers WHERE work_item_id = ?', [id]),
    insertBlocker: (...params: SqlValue[]) =>
      sql.run('INSERT INTO work_item_blockers (work_item_id, blocker_id, position) VALUES (?, ?, ?)', params),
    exists: (id: number) => sql.get<{ id: number }>('SELECT id FROM work_items WHERE id = ?', [id]),
    linkedRevision: (id: number) =>
      sql.get<{ id: number }>(
        "SELECT id FROM revisions WHERE work_item_id = ? AND state = 'open' ORDER BY id LIMIT 1",
        [id],
      ),
    setState: (...params: SqlValue[]) =>
      sql.run('UPDATE work_items SET state = ?, updated_at = ? WHERE id = ?', params),
    setBody: (...params: SqlValue[]) =>
      sql.run('UPDATE work_items SET body = ?, updated_at = ? WHERE id = ?', params),
    setTitle: (...params: SqlValue[]) =>
      sql.run('UPDATE work_items SET title = ?, updated_at = ? WHERE id = ?', params),
    touch: (...params: SqlValue[]) => sql.run('UPDATE work_items SET updated_at = ? WHERE id = ?', params),
    insertComment: (...params: SqlValue[]) =>
      sql.run(
        'INSERT INTO work_item_comments (work_item_id, author, body, created_at) VALUES (?, ?, ?, ?)',
        params,
      ),
    comments: (id: number) =>
      sql.all<{ id: number; author: string; body: string; created_at: string }>(
        'SELECT id, author, body, created_at FROM work_item_comments WHERE work_item_id = ? ORDER BY id',
        [id],
      ),
  };

  function find(id: string): WorkItemRow | null {
    const rowID = parseTrackerID(id);
    return rowID === null ? null : (statements.select(rowID) ?? null);
  }

  function requireRow(id: string): WorkItemRow {
    const row = find(id);
    if (row === null) {
      throw new StorageError(`work item #${id} does not exist; expected the id of an existing work item`);
    }
    return row;
  }

  function labelsOf(rowID: number): string[] {
    return statements.labels(rowID).map((row) => row.label);
  }

  function writeLabels(rowID: number, labels: readonly string[]): void {
    statements.deleteLabels(rowID);
    [...new Set(labels)].forEach((label, position) => {
      statements.insertLabel(rowID, label, position);
    });
  }

  /** `subject` names the item in errors: a new one has no id the user could know yet. */
  function writeBlockers(rowID: number, blockedBy: readonly string[], subject: string): void {
    statements.deleteBlockers(rowID);
    [...new Set(blockedBy)].forEach((blocker, position) => {
      const blockerID = parseTrackerID(blocker);
      if (blockerID === null || statements.exists(blockerID) === undefined) {
        throw new StorageError(
          `${subject}: blocker #${blocker} does not exist; expected the id of an existing work item`,
        );
      }
      if (blockerID === rowID) {
        throw new StorageError(`${subject}: it cannot block itself; expected other work items' ids`);
      }
      statements.insertBlocker(rowID, blockerID, position);
    });
  }

  function toWorkItem(row: WorkItemRow): WorkItem {
    const parsed = parseWorkItemLabels(labelsOf(row.id));
    return {
      id: String(row.id),
      title: row.title,
      status: row.state === 'closed' ? 'closed' : (parsed.status ?? 'pending'),
      kind: parsed.kind,
      priority: parsed.priority,
      complexity: parsed.complexity,
      ...(parsed.runtime !== null && { runtime: parsed.runtime }),
      ...(parsed.mode !== null && { mode: parsed.mode }),
      ...(parsed.complexityLabel !== null && { complexityLabel: parsed.complexityLabel }),
      blockedBy: statements.blockers(row.id).map((blocker) => String(blocker.blocker_id)),
      bodyHash: hashText(row.body),
      createdAt: row.created_at,
      linkedRevision: linkedRevisionOf(row.id),
    };
  }

  /** The lowest-numbered open revision for the item, like GitHub's closing-keyword lookup. */
  function linkedRevisionOf(rowID: number): string | null {
    const row = statements.linkedRevision(rowID);
    return row === undefined ? null : String(row.id);
  }

  function checkStatus(id: string, status: string): void {
    if (!(WORK_ITEM_STATUSES as readonly string[]).includes(status)) {
      throw new StorageError(
        `work item #${id}: unknown status "${status}"; expected one of ${WORK_ITEM_STATUSES.join(', ')}`,
      );
    }
  }

  const createInTransaction = (input: CreateWorkItemInput): WorkItem =>
    sql.transaction(() => {
      const at = isoAt(options.now);
      const rowID = statements.newID();
      statements.insert(rowID, input.title, input.body, at, at);
      const hasKind = input.labels.some((label) => label.startsWith(KIND_PREFIX));
      writeLabels(rowID, [...(hasKind ? [] : ['task:implement']), ...input.labels]);
      writeBlockers(rowID, input.blockedBy, `new work item "${input.title}"`);
      return toWorkItem(requireRow(String(rowID)));
    });

  return {
    createWorkItem(input) {
      if (input.title.trim() === '') {
        throw new StorageError('new work item: the title is empty; expected a non-empty title');
      }
      return createInTransaction(input);
    },
    getWorkItem(id) {
      const row = find(id);
      return row === null ? null : toWorkItem(row);
    },
    listWorkItems(listOptions = {}) {
      return sql.transaction(() =>
        (listOptions.includeClosed ? statements.selectAll() : statements.selectOpen()).map(toWorkItem),
      );
    },
    getWorkItemBody(id) {
      return requireRow(id).body;
    },
    getWorkItemLabels(id) {
      return labelsOf(requireRow(id).id);
    },
    getWorkItemComments(id) {
      return statements.comments(requireRow(id).id).map((row) => ({
        id: String(row.id),
        author: row.author,
        body: row.body,
        createdAt: row.created_at,
      }));
    },
    transitionStatus: (id: string, status: WorkItemStatus) =>
      sql.transaction(() => {
        checkStatus(id, status);
        const row = requireRow(id);
        const labels = labelsOf(row.id).filter((label) => !label.startsWith(STATUS_PREFIX));
        writeLabels(row.id, [...labels, `${STATUS_PREFIX}${status}`]);
        statements.setState(status === 'closed' ? 'closed' : 'open', isoAt(options.now), row.id);
      }),
    updateWorkItem: (id: string, update: WorkItemUpdate) =>
      sql.transaction(() => {
        const row = requireRow(id);
        if (update.body !== null) statements.setBody(update.body, isoAt(options.now), row.id);
        if (update.labels !== null) {
          // Statuses change only through transitionStatus; the kind stays unless the new labels name one.
          const given = update.labels.filter((label) => !label.startsWith(STATUS_PREFIX));
          const givesKind = given.some((label) => label.startsWith(KIND_PREFIX));
          const kept = labelsOf(row.id).filter(
            (label) => label.startsWith(STATUS_PREFIX) || (!givesKind && label.startsWith(KIND_PREFIX)),
          );
          writeLabels(row.id, [...kept, ...given]);
          statements.touch(isoAt(options.now), row.id);
        }
      }),
    setTitle: (id: string, title: string) =>
      sql.transaction(() => {
        if (title.trim() === '') {
          throw new StorageError(`work item #${id}: the title is empty; expected a non-empty title`);
        }
        statements.setTitle(title, isoAt(options.now), requireRow(id).id);
      }),
    setBlockedBy: (id: string, blockedBy: string[]) =>
      sql.transaction(() => {
        const row = requireRow(id);
        writeBlockers(row.id, blockedBy, `work item #${row.id}`);
        statements.touch(isoAt(options.now), row.id);
      }),
    addComment(id, body, author = options.engineAuthor) {
      statements.insertComment(requireRow(id).id, author, body, isoAt(options.now));
    },
    closeWorkItem(id) {
      statements.setState('closed', isoAt(options.now), requireRow(id).id);
    },
    reopenWorkItem(id) {
      statements.setState('open', isoAt(options.now), requireRow(id).id);
    },
  };
}
