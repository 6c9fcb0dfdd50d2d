import type {
  LocalAdmin,
  RevisionReader,
  WorkItemReader,
  WorkItemWriter,
} from '../../../src/providers/types.ts';
import type { InMemoryWorld } from './in-memory-world.ts';

/**
 * The in-memory tracker's LocalAdmin capability (src/providers/types.ts): a tracker kept by Flotilla itself,
 * as the local one. Built over the provider's own reader and writer, so its rules are theirs; the world keeps
 * comment bodies only, so a human's comment keeps its body (the author is dropped).
 */
export function createInMemoryLocalAdmin(
  world: InMemoryWorld,
  parts: { reader: WorkItemReader; writer: WorkItemWriter; revisions: RevisionReader },
): LocalAdmin {
  const { reader, writer } = parts;
  function record(id: string) {
    const found = world.workItems.get(id);
    if (!found) throw new Error(`in-memory provider: work item ${id} does not exist`);
    return found;
  }
  return {
    async listAllWorkItems() {
      const items = await Promise.all([...world.workItems.keys()].map((id) => reader.getWorkItem(id)));
      return items.filter((item) => item !== null);
    },
    async getLabels(id) {
      return [...record(id).labels];
    },
    async createWorkItem(input, comment) {
      const created = await writer.createWorkItem(input);
      if (comment !== null) await writer.addComment(created.id, comment(created));
      return created;
    },
    async editWorkItem(id, edit) {
      const item = record(id);
      for (const blocker of edit.blockedBy ?? []) {
        if (blocker === id || !world.workItems.has(blocker)) {
          throw new Error(`in-memory provider: #${id} cannot wait for ${blocker}`);
        }
      }
      if (edit.title !== null) item.title = edit.title;
      await writer.updateWorkItem(id, { body: edit.body, labels: edit.labels });
      if (edit.blockedBy !== null) item.blockedBy = [...edit.blockedBy];
      const edited = await reader.getWorkItem(id);
      if (edited === null) throw new Error(`in-memory provider: work item ${id} does not exist`);
      return edited;
    },
    async addHumanComment(id, comment) {
      record(id).comments.push(comment.body);
    },
    async closeWorkItem(id, comment) {
      const item = record(id);
      const revisionID = (await reader.getWorkItem(id))?.linkedRevision ?? null;
      if (comment !== null) item.comments.push(comment.body);
      const revision = revisionID === null ? undefined : world.revisions.get(revisionID);
      if (revision !== undefined) revision.state = 'closed';
      await writer.transitionStatus(id, 'closed');
      return revisionID === null ? null : parts.revisions.getRevision(revisionID);
    },
  };
}
