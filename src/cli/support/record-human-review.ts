import {
  type AgentReviewComment,
  listPatchFiles,
  revisionName,
  type WorkItemStatus,
} from '../../domain/index.ts';
import type { EngineStatePersistence, ReviewState, SqliteTracker } from '../../storage/index.ts';
import { CliError } from './cli-error.ts';
import { requireNoActiveAgent } from './require-no-active-agent.ts';
import { requireWorkItem } from './require-work-item.ts';

export type HumanVerdict = 'approve' | 'request-changes' | 'comment';

export const HUMAN_VERDICTS: Record<
  HumanVerdict,
  { state: ReviewState; status: WorkItemStatus | null; verb: string }
> = {
  approve: { state: 'APPROVED', status: 'approved', verb: 'approved' },
  // As the engine does with a reviewer's needs-changes: back to pending, so an implementor reworks the
  // revision with the review history (yours included) in its prompt.
  'request-changes': { state: 'CHANGES_REQUESTED', status: 'pending', verb: 'requested changes on' },
  comment: { state: 'COMMENTED', status: null, verb: 'commented on' },
};

/** `flotilla review --json` (documented in src/cli/README.md) and the API's `POST …/review`. */
export interface ReviewSummary {
  workItemID: string;
  revisionID: string;
  headSHA: string;
  reviewID: string;
  author: string;
  state: ReviewState;
  previousStatus: WorkItemStatus;
  status: WorkItemStatus;
  /** The revision's checks when it was recorded ('pending' when none ran yet): approving unchecked is allowed. */
  checks: 'success' | 'failure' | 'pending';
  /** The revision's display name (`revisionName`) and head branch, for the human's line. */
  revisionName: string;
  headRef: string;
}

export interface HumanReviewInput {
  verdict: HumanVerdict;
  body: string;
  author: string;
  lineComments: AgentReviewComment[];
}

/** The item and its open revision, when a human may review it now: not closed, not being reworked. */
function requireOpenRevision(tracker: SqliteTracker, id: string) {
  const item = requireWorkItem(tracker, id, 'review');
  if (item.status === 'closed') {
    throw new CliError(`#${id} is closed; there is nothing to review (\`flotilla work reopen ${id}\`)`, {
      exitCode: 1,
    });
  }
  const revision = item.linkedRevision === null ? null : tracker.revisions.getRevision(item.linkedRevision);
  if (revision === null) {
    throw new CliError(
      `#${id} has no open revision to review (it is ${item.status}); an implementor makes one`,
      {
        exitCode: 1,
      },
    );
  }
  if (item.status === 'in-progress') {
    throw new CliError(
      `#${id} is in-progress: an implementor is reworking revision ${revisionName(revision)}; review the new head when it is in review`,
      { exitCode: 1 },
    );
  }
  return { item, revision };
}

/** Line comments go on files the revision changes (exit 2 otherwise). */
function requireChangedFiles(
  lineComments: HumanReviewInput['lineComments'],
  changed: readonly string[],
  revision: Parameters<typeof revisionName>[0],
): void {
  for (const comment of lineComments) {
    if (!changed.includes(comment.path)) {
      throw new CliError(
        `line comment on ${comment.path}:${comment.line}: ${comment.path} is not changed by revision ${revisionName(revision)}; expected one of ${changed.join(', ') || '(none)'}`,
        { exitCode: 2 },
      );
    }
  }
}

/**
 * A human's verdict on an item's open revision in the local tracker, as `flotilla review` and the API's
 * `POST /api/work-items/:id/review` record it: a review on the revision and a comment on the item, and the
 * item moved as the engine would for that verdict (approve → approved, request changes → pending, comment →
 * no move), all in one transaction. Refusals are CliErrors: exit 2 for bad input (no text, a line comment on
 * a file the revision does not change), exit 1 when the item's state does not allow it (closed, no open
 * revision, in progress, an agent running on it).
 */
export function recordHumanReview(
  deps: { tracker: SqliteTracker; history: EngineStatePersistence; stateDir: string },
  id: string,
  input: HumanReviewInput,
): ReviewSummary {
  const { tracker } = deps;
  const { verdict, body, author, lineComments } = input;
  if (verdict !== 'approve' && body.trim() === '' && lineComments.length === 0) {
    throw new CliError(`${verdict} needs the review text (or line comments)`, { exitCode: 2 });
  }
  const { item, revision } = requireOpenRevision(tracker, id);
  requireNoActiveAgent({ history: deps.history, paths: { stateDir: deps.stateDir } }, id, 'your verdict');
  const changed = listPatchFiles(tracker.revisions.getRevisionPatch(revision.id));
  requireChangedFiles(lineComments, changed, revision);
  const { state, status, verb } = HUMAN_VERDICTS[verdict];
  const newStatus = status ?? item.status;
  const reviewID = tracker.transaction(() => {
    const recorded = tracker.revisions.addReview(revision.id, {
      author,
      state,
      body,
      comments: lineComments,
    });
    tracker.workItems.addComment(
      id,
      `${author} ${verb} revision ${revision.id} (\`flotilla review\`)${body.trim() === '' ? '.' : `:\n\n${body}`}`,
      author,
    );
    if (newStatus !== item.status) tracker.workItems.transitionStatus(id, newStatus);
    return recorded;
  });
  const checks = revision.pipeline?.status;
  return {
    workItemID: id,
    revisionID: revision.id,
    headSHA: revision.headSHA,
    reviewID,
    author,
    state,
    previousStatus: item.status,
    status: newStatus,
    checks: checks === 'success' || checks === 'failure' ? checks : 'pending',
    revisionName: revisionName(revision),
    headRef: revision.headRef,
  };
}
