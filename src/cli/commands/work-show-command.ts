import type { Command } from 'commander';
import {
  type AgentNoteRecord,
  buildChecksView,
  type ChecksView,
  describeReviewVerdict,
  listOpenBlockers,
  type Revision,
  revisionName,
  type TaskContextEntry,
  type WorkItem,
  type WorkItemStatus,
} from '../../domain/index.ts';
import type {
  AgentNoteRepository,
  RevisionState,
  SqliteTracker,
  StoredReview,
  TaskContextRepository,
  TrackerComment,
} from '../../storage/index.ts';
import { loadContractTrackerCommands } from '../support/load-contract-tracker-commands.ts';
import { openLocalTracker } from '../support/open-local-tracker.ts';
import { parseWorkItemID } from '../support/parse-work-item-id.ts';
import { requireWorkItem } from '../support/require-work-item.ts';
import { runCliAction } from '../support/run-cli-action.ts';
import { withCliContext } from '../support/with-cli-context.ts';
import { writeJson } from '../support/write-json.ts';

/** `work show --json` (documented in src/cli/README.md). */
export type WorkItemDetails = WorkItem & {
  /** The blockers still neither approved nor closed, with their status (`blockedBy` keeps them all). */
  waitingFor: { id: string; status: WorkItemStatus }[];
  body: string;
  labels: string[];
  comments: TrackerComment[];
  /** The pipeline in the users' vocabulary (passed, failed, pending: src/domain/checks-outcome.ts). */
  revision:
    | (Omit<Revision, 'pipeline'> & {
        pipeline: ChecksView | null;
        state: RevisionState;
        reviews: StoredReview[];
      })
    | null;
  /** What earlier runs on the item did, oldest first (docs/task-context.md); absent where it is not read. */
  taskContext?: TaskContextEntry[];
  /** What agents decided on the item, and why (`record_decision`), oldest first; absent where not read. */
  decisions?: AgentNoteRecord[];
  /** Non-blocking questions agents logged for a human (`log_question`), oldest first. */
  questions?: AgentNoteRecord[];
};

/** `flotilla work show <id> [--json]`: one work item with its body, comments and linked revision. */
export function registerWorkShowCommand(work: Command): void {
  work
    .command('show')
    .description(
      'show a work item: body, labels, blockers, comments, and its revision (open or merged) with checks and every review',
    )
    .argument('<id>', 'work item id, e.g. 12 or #12')
    .option('--json', 'print one JSON object')
    .action(
      runCliAction('work show', (rawID: string, options: { json?: boolean }) => {
        const id = parseWorkItemID(rawID);
        return withCliContext(async (context) => {
          const tracker = await openLocalTracker(context);
          if (tracker === undefined) return (await loadContractTrackerCommands()).show(context, id, options);
          const details = readDetails(tracker, id, context.history.taskContext, context.history.notes);
          if (options.json) writeJson(details);
          else process.stdout.write(formatDetails(details));
        });
      }),
    );
}

/** The `work show --json` object; shared with the HTTP API (src/api/). */
export function readDetails(
  tracker: SqliteTracker,
  id: string,
  taskContext?: Pick<TaskContextRepository, 'list'>,
  notes?: Pick<AgentNoteRepository, 'listForItem'>,
): WorkItemDetails {
  const item = requireWorkItem(tracker, id, 'work show');
  // The open revision; once merged (or closed) the item links none, and its latest one is still its history.
  const revision =
    item.linkedRevision === null
      ? (tracker.revisions.listWorkItemRevisions(id).at(-1) ?? null)
      : tracker.revisions.getRevision(item.linkedRevision);
  return {
    ...item,
    waitingFor: listOpenBlockers(item, (blocker) => tracker.workItems.getWorkItem(blocker)?.status),
    body: tracker.workItems.getWorkItemBody(id),
    labels: tracker.workItems.getWorkItemLabels(id),
    comments: tracker.workItems.getWorkItemComments(id),
    revision:
      revision === null
        ? null
        : {
            ...revision,
            pipeline: buildChecksView(revision.pipeline),
            state: tracker.revisions.getRevisionState(revision.id),
            reviews: tracker.revisions.listReviews(revision.id),
          },
    ...(taskContext !== undefined && { taskContext: taskContext.list(id) }),
    ...(notes !== undefined && {
      decisions: notes.listForItem(id, 'decision'),
      questions: notes.listForItem(id, 'question'),
    }),
  };
}

function formatDetails(details: WorkItemDetails): string {
  const done = details.blockedBy
    .filter((id) => !details.waitingFor.some((open) => open.id === id))
    .map((id) => `#${id}`);
  const lines = [
    `#${details.id} ${details.title}`,
    `status: ${details.status}   kind: ${details.kind}   priority: ${details.priority ?? '-'}   complexity: ${details.complexity ?? '-'}`,
    `labels: ${details.labels.join(', ') || '-'}`,
    `waiting for: ${details.waitingFor.map(({ id, status }) => `#${id} (${status})`).join(', ') || '-'}${done.length === 0 ? '' : `   (done: ${done.join(', ')})`}`,
    `created: ${details.createdAt}`,
    '',
    details.body.trim() === '' ? '(no description)' : details.body.trimEnd(),
  ];
  if (details.comments.length > 0) {
    lines.push('', `Comments (${details.comments.length}):`);
    for (const comment of details.comments) {
      lines.push(`  ${comment.createdAt} ${comment.author}:`, ...indent(comment.body, '    '));
    }
  }
  const revision = details.revision;
  lines.push('');
  if (revision === null) {
    lines.push('Revision: none');
  } else {
    const pipeline = revision.pipeline;
    lines.push(
      `Revision ${revisionName(revision)} (${revision.state}) on ${revision.headRef} at ${revision.headSHA.slice(0, 12)}`,
      `  checks: ${pipeline === null ? 'unknown' : pipeline.status}${pipeline?.reason ? ` — ${pipeline.reason}` : ''}${pipeline?.url ? ` (log: ${pipeline.url})` : ''}`,
    );
    if (revision.reviews.length === 0) lines.push('  reviews: none');
    for (const review of revision.reviews) {
      const round = review.round === null ? 'comment' : `round ${review.round}`;
      lines.push(
        `  review ${review.id} (${round}) by ${review.author}: ${describeVerdict(review)}`,
        ...indent(review.body, '    '),
      );
      for (const comment of review.comments) {
        lines.push(`    ${comment.path}${comment.line === null ? '' : `:${comment.line}`}: ${comment.body}`);
      }
    }
  }
  if (details.taskContext !== undefined) lines.push('', ...formatTaskContext(details.taskContext));
  if (details.decisions !== undefined) lines.push('', ...formatNotes('Decisions', details.decisions));
  if (details.questions !== undefined && details.questions.length > 0)
    lines.push('', ...formatNotes('Questions agents logged', details.questions));
  return `${lines.join('\n')}\n`;
}

/** Decisions (with why) or logged questions, oldest first, each with the run's role and runtime. */
function formatNotes(title: string, notes: readonly AgentNoteRecord[]): string[] {
  if (notes.length === 0) return [`${title}: none`];
  const lines = [`${title} (${notes.length}, oldest first):`];
  for (const note of notes) {
    const at = new Date(note.createdAt).toISOString();
    lines.push(`  ${at} [${note.role} · ${note.runtime ?? '?'}] ${note.text}`);
    if (note.why !== null) lines.push(...indent(`why: ${note.why}`, '    '));
  }
  return lines;
}

/** Every entry, whole: the prompt may shorten or leave out old ones, this never does. */
function formatTaskContext(entries: readonly TaskContextEntry[]): string[] {
  if (entries.length === 0) return ['Task context: none'];
  const lines = [`Task context (${entries.length}, oldest first):`];
  for (const entry of entries) {
    const source = entry.runtime === null ? entry.role : `${entry.role} · ${entry.runtime}`;
    lines.push(
      `  ${new Date(entry.createdAt).toISOString()} ${entry.type} [${source}] run ${entry.sessionID}`,
      ...indent(entry.summary || '(no summary)', '    '),
    );
  }
  return lines;
}

/** What the review said — kept when a later review replaced it, which is said after it. */
function describeVerdict(review: StoredReview): string {
  const { said, replaced } = describeReviewVerdict({
    state: review.state,
    ...(review.verdict !== null && { verdict: review.verdict }),
  });
  return replaced && said !== 'dismissed' ? `${said} (replaced by a later review)` : said;
}

function indent(text: string, prefix: string): string[] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `${prefix}${line}`);
}
