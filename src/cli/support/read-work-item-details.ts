import {
  type AgentNoteRecord,
  buildChecksView,
  type ChecksView,
  listOpenBlockers,
  type Revision,
  type TaskContextEntry,
  type WorkItem,
  type WorkItemStatus,
} from '../../domain/index.ts';
import type {
  ItemHistory,
  ItemHistoryComment,
  ItemHistoryReview,
  Provider,
  RevisionState,
} from '../../providers/types.ts';
import { requireProviderItem } from './require-provider-item.ts';

/** `work show --json` (documented in src/cli/README.md). */
export type WorkItemDetails = WorkItem & {
  /** The blockers still neither approved nor closed, with their status (`blockedBy` keeps them all). */
  waitingFor: { id: string; status: WorkItemStatus }[];
  body: string;
  labels: string[];
  comments: ItemHistoryComment[];
  /** The pipeline in the users' vocabulary (passed, failed, pending: src/domain/checks-outcome.ts). */
  revision:
    | (Omit<Revision, 'pipeline'> & {
        pipeline: ChecksView | null;
        state: RevisionState;
        reviews: ItemHistoryReview[];
      })
    | null;
  /** What earlier runs on the item did, oldest first (docs/task-context.md); absent where it is not read. */
  taskContext?: TaskContextEntry[];
  /** What agents decided on the item, and why (`record_decision`), oldest first; absent where not read. */
  decisions?: AgentNoteRecord[];
  /** Non-blocking questions agents logged for a human (`log_question`), oldest first. */
  questions?: AgentNoteRecord[];
};

/** Run history the details add where it is kept (`.flotilla/flotilla.db`). */
export interface DetailsHistory {
  taskContext?: { list(workItemID: string): TaskContextEntry[] };
  notes?: { listForItem(workItemID: string, kind: 'decision' | 'question'): AgentNoteRecord[] };
}

/**
 * The `work show --json` object, through the provider contract: the item, its body and its blockers'
 * status, plus its history (labels, comments, revision with every review) where the provider has the
 * `history` capability — else its trusted comments and open revision only. Shared with the HTTP API.
 * An unknown id: CliError exit 1 (`work item #… does not exist`, the API's 404).
 */
export async function readWorkItemDetails(
  provider: Pick<Provider, 'workItemReader' | 'revisionReader' | 'localAdmin' | 'history'>,
  id: string,
  history: DetailsHistory = {},
): Promise<WorkItemDetails> {
  const item = await requireProviderItem(provider, id, 'work show');
  const [body, tracked, blockers] = await Promise.all([
    provider.workItemReader.getWorkItemBody(id),
    readHistory(provider, item),
    Promise.all(item.blockedBy.map((blocker) => provider.workItemReader.getWorkItem(blocker))),
  ]);
  const statusOf = (blocker: string) => blockers.find((found) => found?.id === blocker)?.status;
  const revision = tracked.revision;
  return {
    ...item,
    waitingFor: listOpenBlockers(item, statusOf),
    body,
    labels: tracked.labels,
    comments: tracked.comments,
    revision: revision === null ? null : { ...revision, pipeline: buildChecksView(revision.pipeline) },
    ...(history.taskContext !== undefined && { taskContext: history.taskContext.list(id) }),
    ...(history.notes !== undefined && {
      decisions: history.notes.listForItem(id, 'decision'),
      questions: history.notes.listForItem(id, 'question'),
    }),
  };
}

/** The provider's history of the item, or what the contract alone tells of it. */
async function readHistory(
  provider: Pick<Provider, 'workItemReader' | 'revisionReader' | 'history'>,
  item: WorkItem,
): Promise<ItemHistory> {
  if (provider.history !== undefined) return provider.history.readItemHistory(item.id);
  const [comments, revision] = await Promise.all([
    provider.workItemReader.listComments?.(item.id) ?? [],
    item.linkedRevision === null ? null : provider.revisionReader.getRevision(item.linkedRevision),
  ]);
  return {
    labels: [],
    comments: comments.map((comment, index) => ({ id: `${item.id}-${index}`, ...comment })),
    revision: revision === null ? null : { ...revision, state: 'open', reviews: [] },
  };
}
