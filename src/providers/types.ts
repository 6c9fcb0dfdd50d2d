import type {
  AgentReview,
  AgentReviewComment,
  CreateWorkItemInput,
  MergeConflictFile,
  ReviewHistory,
  Revision,
  RevisionFeedback,
  RevisionFile,
  SpecListing,
  TaskContextEntry,
  WorkItem,
  WorkItemStatus,
} from '../domain/index.ts';

/** Reads work items. Only pollers and runtime adapters get readers. */
export interface WorkItemReader {
  /** Every work item that is not closed. */
  listWorkItems(): Promise<WorkItem[]>;
  /** Any work item, closed ones included; null when the id does not exist. */
  getWorkItem(id: string): Promise<WorkItem | null>;
  /** The item's description without provider metadata. Throws when the item does not exist. */
  getWorkItemBody(id: string): Promise<string>;
  /**
   * Optional capability: the item's comments, oldest first. The engine reads the answers to an agent's
   * questions from them (replies after the questions comment); without it only the dashboard answers.
   * `since` (ISO timestamp, when the questions were asked) lets a provider skip older comments; it may
   * return more. A provider leaves out comments by authors it does not trust to steer an agent (GitHub: a
   * drive-by user on a public repository, other bots), never the engine's own.
   */
  listComments?(id: string, options?: { since?: string }): Promise<WorkItemComment[]>;
}

/** One comment on a work item, as a provider reports it. */
export interface WorkItemComment {
  author: string;
  body: string;
  /** ISO timestamp. */
  createdAt: string;
}

/** Writes work items. Only the command executor gets writers. */
export interface WorkItemWriter {
  transitionStatus(id: string, status: WorkItemStatus): Promise<void>;
  createWorkItem(input: CreateWorkItemInput): Promise<WorkItem>;
  /** Null fields are left unchanged. Labels replace the non-reserved labels. */
  /** `title` (issue #29: an accepted refinement's clearer title): absent or null, unchanged. */
  updateWorkItem(
    id: string,
    update: { body: string | null; labels: string[] | null; title?: string | null },
  ): Promise<void>;
  addComment(id: string, body: string): Promise<void>;
}

export interface RevisionReader {
  /** Every open revision, with its latest known pipeline. */
  listRevisions(): Promise<Revision[]>;
  getRevision(id: string): Promise<Revision | null>;
  getRevisionFiles(id: string): Promise<RevisionFile[]>;
  getReviewHistory(id: string): Promise<ReviewHistory>;
  /**
   * Optional capability: the end of the output of the revision's failed checks (bounded), for the
   * implementor's rework prompt. Null when the head's checks did not fail or kept no output.
   */
  getChecksOutputTail?(id: string): Promise<ChecksOutputTail | null>;
  /**
   * Optional capability (issue #26): humans' feedback on the revision that steers Flotilla and that it has
   * not answered yet, oldest first: changes requests and approvals, and comments mentioning the trigger
   * (with a changes request's line comments). Only authors the provider trusts (GitHub:
   * `github.answerAuthorAssociations`); never Flotilla's own writes. Feedback `replyToFeedback` answered is
   * left out (recoverable from the tracker: the replies name what they answer). Meant to be cheap when
   * nothing changed (GitHub: conditional requests, 304s).
   */
  listFeedback?(id: string): Promise<RevisionFeedback[]>;
}

/** The last part of a checks log. */
export interface ChecksOutputTail {
  text: string;
  /** Earlier output was left out (the line or byte bound was reached). */
  truncated: boolean;
  /** Where the whole output is. */
  logPath: string;
}

export interface CreateRevisionInput {
  workItemID: string;
  patch: string;
  branchName: string;
  title: string;
  body: string;
  /**
   * The commit the patch was made against (issue #30). When the default branch does not contain it
   * (stacked work: it holds the blockers' approved revisions), the revision is committed on it, so its
   * patch stays relative to what it builds on; otherwise (or absent) on the default branch's head.
   */
  base?: string;
}

/** What `RevisionWriter.mergeRevision` did. */
export interface MergeRevisionResult {
  /** The revision's work item as the tracker has it after the merge (closed). */
  workItem: WorkItem;
  /**
   * How the default branch received the head; `already-merged`: it already contained it, nothing moved.
   * `squash` and `rebase` come only from `flotilla merge --squash|--rebase` (the engine merges by default).
   */
  strategy: 'fast-forward' | 'merge-commit' | 'squash' | 'rebase' | 'already-merged';
  /** The default branch's head after the merge. */
  mergedSHA: string;
  /** The default branch's head before it, where the provider merged in the user's repository (local). */
  previousSHA?: string;
  /**
   * The checkout of the default branch the merge fast-forwarded (local: a clean worktree that has it checked
   * out), or null when none was touched; absent where the merge happens elsewhere (GitHub).
   */
  updatedWorktree?: string | null;
}

/** What `RevisionWriter.deleteRevisionBranch` did. */
export type DeleteRevisionBranchOutcome =
  /** Deleted. */
  | 'deleted'
  /** It did not exist any more. */
  | 'gone'
  /** Kept: a worktree has it checked out. */
  | 'checked-out'
  /** Kept: it moved past the revision's head (someone's new work). */
  | 'moved';

/** Options of `RevisionWriter.mergeRevision`. */
export interface MergeRevisionOptions {
  /** The head that passed the checks; a branch that moved since is refused (GitHub: `sha`). */
  expectedHeadSHA?: string;
  /**
   * The merge queue's merge: only when the default branch is already in the head (a fast-forward), so what
   * lands is exactly the tree the checks passed on; refused otherwise, nothing changed.
   */
  fastForwardOnly?: boolean;
  /**
   * Who asked, named in the merge commit's message where the provider writes one (local); default the
   * engine. `flotilla merge` says `flotilla merge`.
   */
  requestedBy?: string;
}

/** What `RevisionWriter.updateRevisionBranch` did (issue #30 §5). */
export type UpdateRevisionBranchResult =
  /** The head already contains the default branch: nothing written. */
  | { outcome: 'up-to-date'; revision: Revision }
  /**
   * The revision now sits on the default branch's head: a new head, its checks start over.
   * `changedApproved`: its change differs from the one before beyond shifted lines (not the same patch id).
   */
  | { outcome: 'rebased'; revision: Revision; previousHeadSHA: string; changedApproved: boolean }
  /** It does not apply to the default branch any more: nothing written. */
  | { outcome: 'conflict'; baseSHA: string; files: MergeConflictFile[] }
  /**
   * The tracker runs its own merge queue (GitHub's): the revision was handed to it; it merges when its
   * checks pass there.
   */
  | { outcome: 'enqueued'; revision: Revision };

export interface RevisionWriter {
  /**
   * Creates the revision by applying the patch to a fresh branch from the default branch, or updates the
   * revision that already exists for the branch. A patch that does not apply throws and writes nothing.
   */
  createFromPatch(input: CreateRevisionInput): Promise<Revision>;
  updateBody(revisionID: string, body: string): Promise<void>;
  /** Returns the new review's id. */
  postReview(revisionID: string, review: AgentReview): Promise<string>;
  /** Replaces the engine's earlier review. */
  updateReview(revisionID: string, reviewID: string, review: AgentReview): Promise<string>;
  postComment(revisionID: string, body: string): Promise<void>;
  /**
   * Optional capability, with `RevisionReader.listFeedback`: answers the feedback where it was written —
   * a line comment by a reply in its thread, reviews and comments by one comment on the revision quoting
   * them — each reply marked so `listFeedback` leaves the feedback out from then on.
   */
  replyToFeedback?(revisionID: string, feedback: readonly RevisionFeedback[], body: string): Promise<void>;
  /**
   * Optional capability: integrates the revision into the default branch, marks it merged (it leaves
   * listRevisions) and closes its work item. Throws, having changed nothing, when the revision is not open,
   * its work item is not approved or not linked to it, or the integration is refused (a conflict, a branch
   * that moved after the review, a dirty checkout of the default branch). Providers without it leave
   * merging to the tracker (e.g. a pull request merged on GitHub); the engine then refuses merge commands.
   * A refused integration's error may carry `details: string[]`: the files involved (conflicts, the
   * checkout's uncommitted changes), one per entry.
   */
  mergeRevision?(revisionID: string, options?: MergeRevisionOptions): Promise<MergeRevisionResult>;
  /**
   * Optional capability (`flotilla merge --delete-branch`): deletes the revision's branch (kept by a merge)
   * only while it is still at the revision's head and no worktree has it checked out. Providers without it
   * leave the branch to the tracker (GitHub's auto-delete setting).
   */
  deleteRevisionBranch?(revisionID: string): Promise<DeleteRevisionBranchOutcome>;
  /**
   * Optional capability, the merge queue's (issue #30 §5): brings the open revision onto the current
   * default branch — the local provider replays its change on the branch's head (a new commit, checks run
   * again); GitHub updates the pull request branch. Throws, having changed nothing, when the revision is not
   * open or its branch is not at `expectedHeadSHA`. Without it the engine's queue does not run.
   */
  updateRevisionBranch?(revisionID: string, expectedHeadSHA: string): Promise<UpdateRevisionBranchResult>;
}

export interface SpecReader {
  /** Specs on the default branch; unreadable ones come back as problems, not as a failed listing. */
  listSpecs(): Promise<SpecListing>;
  getDefaultBranchSHA(): Promise<string>;
  /**
   * A spec's content, byte for byte, by the blob SHA a listing reported (also an older one): the planner
   * is given exactly the version whose SHA is recorded as planned. Rejects, naming the SHA, when unknown.
   */
  readSpecBlob(blobSHA: string): Promise<string>;
}

/** What a provider says changed on its own (see Provider.onChange): the engine polls that reader. */
export type ProviderChange = 'workItems' | 'revisions' | 'specs';

/**
 * Which one thing changed, when the provider knows (a webhook naming an issue): the engine reads just that
 * work item instead of the whole list — when it already holds it; a new item still needs the list.
 */
export interface ProviderChangeScope {
  workItemID?: string;
}

export type ProviderChangeListener = (change: ProviderChange, scope?: ProviderChangeScope) => void;

/** A tracker API's rate-limit budget as the provider last saw it (GitHub's `x-ratelimit-*`). */
export interface ProviderQuota {
  /** The primary budget; null until a response told it. */
  core: { limit: number; remaining: number; resetAt: Date } | null;
  /** Every request waits until then (a secondary limit, an exhausted budget); null when not paused. */
  pausedUntil: Date | null;
}

/** A comment a human wrote, recorded under their name (the contract's `addComment` is Flotilla's own). */
export interface HumanComment {
  body: string;
  author: string;
}

/**
 * Optional capability (issue #27): what a human does from the command line that only a tracker Flotilla keeps
 * itself (local, in-memory) can do — closed items, free labels, titles and blockers, comments under their
 * author's name, several writes in one transaction. The CLI asks for it by name; without it, a command goes
 * through the contract alone and refuses what only this can do, naming where to do it (the tracker's web page).
 */
export interface LocalAdmin {
  /** Every work item, closed ones included, oldest first. */
  listAllWorkItems(): Promise<WorkItem[]>;
  /** The item's labels, reserved ones included. Throws when the item does not exist. */
  getLabels(id: string): Promise<string[]>;
  /**
   * Creates the item and, when given, its first comment (Flotilla's, written from the new item: it may name
   * the id) in one transaction.
   */
  createWorkItem(
    input: CreateWorkItemInput,
    comment: ((created: WorkItem) => string) | null,
  ): Promise<WorkItem>;
  /**
   * Edits in one transaction; null fields are left unchanged. `labels` replace every label but the status
   * (as `WorkItemWriter.updateWorkItem`); `blockedBy` replaces the blockers. Returns the item as edited.
   */
  editWorkItem(
    id: string,
    edit: { title: string | null; body: string | null; labels: string[] | null; blockedBy: string[] | null },
  ): Promise<WorkItem>;
  addHumanComment(id: string, comment: HumanComment): Promise<void>;
  /**
   * Closes the item and its open revision (a closed item's revision would never be merged; its branch is
   * kept), with the comment when given, in one transaction. Returns the revision it closed, or null.
   */
  closeWorkItem(id: string, comment: HumanComment | null): Promise<Revision | null>;
}

/** A comment in an item's history, with the tracker's id for it. */
export interface ItemHistoryComment extends WorkItemComment {
  id: string;
}

/** A review's state, in GitHub's names (every provider uses them): `DISMISSED` once a later one replaced it. */
export type ItemReviewState = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';

/** One review of a revision, as an item's history shows it. */
export interface ItemHistoryReview {
  id: string;
  author: string;
  state: ItemReviewState;
  /** The state it was posted with, kept once dismissed; null when the tracker kept none. */
  verdict: Exclude<ItemReviewState, 'DISMISSED'> | null;
  /** 1, 2, … among the revision's verdicts (approved or changes requested); null for a comment. */
  round: number | null;
  body: string;
  /** Its line comments. */
  comments: AgentReviewComment[];
  /** ISO timestamp. */
  createdAt: string;
}

/** Where a revision is: open for review, merged into the default branch, or closed unmerged. */
export type RevisionState = 'open' | 'closed' | 'merged';

/** An item's revision in its history: its state and every review round. */
export interface ItemHistoryRevision extends Revision {
  state: RevisionState;
  reviews: ItemHistoryReview[];
}

/** What `flotilla work show` and the HTTP API show of an item beyond the contract's reads. */
export interface ItemHistory {
  /** Every label, reserved ones included. */
  labels: string[];
  /** Every comment, oldest first (what the page shows; not only the ones trusted to steer an agent). */
  comments: ItemHistoryComment[];
  /** The open revision, else the newest merged or closed one the tracker still links; null: none. */
  revision: ItemHistoryRevision | null;
}

/**
 * Optional capability (issue #27 §2): the history of an item and its revision, for `flotilla work show`,
 * `diff`, `checks` and the HTTP API — read-only, and shown to humans (not fed to agents).
 */
export interface HistoryReader {
  /** Throws, naming the id, when the item does not exist. */
  readItemHistory(id: string): Promise<ItemHistory>;
  /**
   * The end of the checks output of the revision's head whatever its outcome (passed, failed, running),
   * bounded as `getChecksOutputTail`; null when no output is kept (no checks ran, the log is gone).
   */
  readChecksLog(revisionID: string): Promise<ChecksOutputTail | null>;
}

/** The five interfaces a provider (local, GitHub, in-memory) implements. */
export interface Provider {
  workItemReader: WorkItemReader;
  workItemWriter: WorkItemWriter;
  revisionReader: RevisionReader;
  revisionWriter: RevisionWriter;
  specReader: SpecReader;
  /**
   * Optional capability: a provider that learns of a change itself (local checks finishing, a webhook)
   * tells the listener at once, so the engine polls that reader now instead of at its next interval.
   * Returns the unsubscribe. Listeners must not throw; a provider without it is only polled.
   */
  onChange?(listener: ProviderChangeListener): () => void;
  /**
   * Optional capability: how many times the configured poll interval to wait now (1 = as configured), e.g.
   * 2, 4, 8 from the GitHub provider as its rate-limit budget drains. Pollers read it before each wait.
   */
  pollIntervalFactor?(): number;
  /**
   * Optional capability: the tracker API's rate-limit budget, for the dashboard header and progress lines.
   * Providers without a metered API (local) leave it out.
   */
  quota?(): ProviderQuota;
  /** Optional capability: a tracker Flotilla keeps itself, administered from the CLI (LocalAdmin). */
  localAdmin?: LocalAdmin;
  /** Optional capability: an item's labels, comments and revision with its reviews; any head's checks log. */
  history?: HistoryReader;
  /**
   * Optional capability (issue #28 §1): a tracker that several machines or clones share keeps each item's
   * task context there too. The engine posts every new entry as a comment on its item
   * (`buildTaskContextComment`); `readEntries` gives back the entries of an item's comments, read from the
   * engine's own comments only (a human's or another bot's never count). The local tracker lives in the same
   * database as the store and leaves it out.
   */
  taskContextMirror?: { readEntries(workItemID: string): Promise<TaskContextEntry[]> };
  /**
   * Optional capability (issue #30): a tracker whose default branch moves away from the local clone (GitHub:
   * merges by its queue, a human's push) brings it, and the branches a run builds on, into the local
   * repository before a run's worktree is made. The local tracker's default branch is the clone's own.
   */
  workBase?: WorkBaseSync;
}

/** Brings what a run starts from into the local repository (Provider.workBase). */
export interface WorkBaseSync {
  /**
   * One `git fetch` of the tracker's default branch and of `branches` (revisions' head refs: a rework's
   * previous revision, blockers' approved revisions) into the local repository, under refs Flotilla owns
   * (never the user's branches). Resolves with the default branch's head there: new worktrees start from
   * it. A branch that cannot be fetched (gone, an invalid name) is left out; rejects only when the default
   * branch cannot be fetched.
   */
  sync(branches: readonly string[]): Promise<{ defaultBranchHead: string }>;
}
