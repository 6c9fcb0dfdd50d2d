import {
  type CreateWorkItemInput,
  parseWorkItemLabels,
  type WorkItem,
  type WorkItemStatus,
} from '../../../src/domain/index.ts';
import type { WorkItemReader, WorkItemWriter } from '../../../src/providers/types.ts';
import { hashText } from '../../../src/shared/hash-text.ts';
import type { InMemoryWorkItemRecord, InMemoryWorld } from './in-memory-world.ts';

/** A work item added by "a human" through the control, not through the writer. */
export interface HumanWorkItemInput {
  title: string;
  body?: string;
  /** The full label set, as a human would set it (no `task:implement` is added). */
  labels?: string[];
  /** Convenience for a `status:*` label; `closed` also closes the item. */
  status?: WorkItemStatus;
  blockedBy?: string[];
  /** ISO timestamp; default from the provider's clock. */
  createdAt?: string;
}

export interface HumanWorkItemEdit {
  title?: string;
  body?: string;
  /** Replaces the whole label set (status label included, unless `status` is also given). */
  labels?: string[];
  /** Replaces the status label; `closed` closes the item, any other status reopens it. */
  status?: WorkItemStatus;
  blockedBy?: string[];
}

const STATUS_PREFIX = 'status:';
const KIND_PREFIX = 'task:';

export function createInMemoryWorkItems(world: InMemoryWorld) {
  function record(id: string): InMemoryWorkItemRecord {
    const found = world.workItems.get(id);
    if (!found) throw new Error(`in-memory provider: work item ${id} does not exist`);
    return found;
  }

  /** The lowest-numbered open revision for the item, like GitHub's closing-keyword lookup. */
  function linkedRevisionOf(id: string): string | null {
    const open = [...world.revisions.values()]
      .filter((revision) => revision.state === 'open' && revision.workItemID === id)
      .map((revision) => Number(revision.id))
      .sort((a, b) => a - b);
    return open[0] === undefined ? null : String(open[0]);
  }

  function toWorkItem(item: InMemoryWorkItemRecord): WorkItem {
    const parsed = parseWorkItemLabels(item.labels);
    return {
      id: item.id,
      title: item.title,
      status: item.state === 'closed' ? 'closed' : (parsed.status ?? 'pending'),
      kind: parsed.kind,
      priority: parsed.priority,
      complexity: parsed.complexity,
      ...(parsed.runtime !== null && { runtime: parsed.runtime }),
      ...(parsed.mode !== null && { mode: parsed.mode }),
      ...(parsed.complexityLabel !== null && { complexityLabel: parsed.complexityLabel }),
      blockedBy: [...item.blockedBy],
      bodyHash: hashText(item.body),
      createdAt: item.createdAt,
      linkedRevision: linkedRevisionOf(item.id),
    };
  }

  function setStatus(item: InMemoryWorkItemRecord, status: WorkItemStatus): void {
    item.labels = [
      ...item.labels.filter((label) => !label.startsWith(STATUS_PREFIX)),
      `${STATUS_PREFIX}${status}`,
    ];
    item.state = status === 'closed' ? 'closed' : 'open';
  }

  function insert(fields: Omit<InMemoryWorkItemRecord, 'id' | 'comments' | 'state'>): InMemoryWorkItemRecord {
    const item: InMemoryWorkItemRecord = { id: world.nextNumber(), state: 'open', comments: [], ...fields };
    world.workItems.set(item.id, item);
    return item;
  }

  const reader: WorkItemReader = {
    async listWorkItems() {
      return [...world.workItems.values()].filter((item) => item.state === 'open').map(toWorkItem);
    },
    async getWorkItem(id) {
      const item = world.workItems.get(id);
      return item ? toWorkItem(item) : null;
    },
    async getWorkItemBody(id) {
      return record(id).body;
    },
    async listComments(id) {
      // The in-memory world keeps bodies only; the engine reads answers from the bodies.
      return record(id).comments.map((body) => ({ author: 'someone', body, createdAt: '' }));
    },
  };

  const writer: WorkItemWriter = {
    async transitionStatus(id, status) {
      setStatus(record(id), status);
    },
    async createWorkItem(input: CreateWorkItemInput) {
      // Like the GitHub provider: every engine-created item is a task unless a `task:*` label says otherwise.
      const hasKind = input.labels.some((label) => label.startsWith(KIND_PREFIX));
      const item = insert({
        title: input.title,
        body: input.body,
        labels: unique([...(hasKind ? [] : ['task:implement']), ...input.labels]),
        blockedBy: [...input.blockedBy],
        createdAt: new Date(world.now()).toISOString(),
      });
      return toWorkItem(item);
    },
    async updateWorkItem(id, update) {
      const item = record(id);
      if (update.title != null) item.title = update.title;
      if (update.body !== null) item.body = update.body;
      if (update.labels !== null) {
        // The status label is kept (statuses change only through transitionStatus); the kind is kept unless
        // the new labels name one; everything else (priority, complexity, free labels) is replaced.
        const given = update.labels.filter((label) => !label.startsWith(STATUS_PREFIX));
        const givesKind = given.some((label) => label.startsWith(KIND_PREFIX));
        const kept = item.labels.filter(
          (label) => label.startsWith(STATUS_PREFIX) || (!givesKind && label.startsWith(KIND_PREFIX)),
        );
        item.labels = unique([...kept, ...given]);
      }
    },
    async addComment(id, body) {
      record(id).comments.push(body);
    },
  };

  const control = {
    addWorkItem(input: HumanWorkItemInput): WorkItem {
      const item = insert({
        title: input.title,
        body: input.body ?? '',
        labels: unique([...(input.labels ?? [])]),
        blockedBy: [...(input.blockedBy ?? [])],
        createdAt: input.createdAt ?? new Date(world.now()).toISOString(),
      });
      if (input.status !== undefined) setStatus(item, input.status);
      return toWorkItem(item);
    },
    editWorkItem(id: string, edit: HumanWorkItemEdit): WorkItem {
      const item = record(id);
      if (edit.title !== undefined) item.title = edit.title;
      if (edit.body !== undefined) item.body = edit.body;
      if (edit.labels !== undefined) item.labels = unique([...edit.labels]);
      if (edit.blockedBy !== undefined) item.blockedBy = [...edit.blockedBy];
      if (edit.status !== undefined) setStatus(item, edit.status);
      return toWorkItem(item);
    },
    /** Closes the issue the way a human does: state only, labels untouched. */
    closeWorkItem(id: string): void {
      record(id).state = 'closed';
    },
    reopenWorkItem(id: string): void {
      record(id).state = 'open';
    },
    /** Removes the item entirely: getWorkItem returns null afterwards. */
    deleteWorkItem(id: string): void {
      record(id);
      world.workItems.delete(id);
    },
    /** Everything stored about the item (body, full labels, comments); a copy. */
    workItemRecord(id: string): InMemoryWorkItemRecord {
      return structuredClone(record(id));
    },
    workItemRecords(): InMemoryWorkItemRecord[] {
      return structuredClone([...world.workItems.values()]);
    },
    workItemComments(id: string): string[] {
      return [...record(id).comments];
    },
    /** The item as a reader would return it, closed ones included; a copy. */
    toWorkItem(id: string): WorkItem {
      return structuredClone(toWorkItem(record(id)));
    },
  };

  return { reader, writer, control };
}

function unique(labels: string[]): string[] {
  return [...new Set(labels)];
}
