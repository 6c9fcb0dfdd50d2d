import { type Revision, revisionName } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { deleteRevisionBranch } from '../../process/delete-revision-branch.ts';
import { runGit } from '../../process/run-command.ts';
import { messageOf } from '../../shared/message-of.ts';
import {
  createSqliteTracker,
  type Database,
  openDatabase,
  type SqlConnection,
  type SqliteTracker,
} from '../../storage/index.ts';
import { buildBranchRef } from '../shared/build-branch-ref.ts';
import { createBranchFromPatch, type GitIdentity } from '../shared/create-branch-from-patch.ts';
import { listChangedFiles } from '../shared/list-changed-files.ts';
import type {
  HistoryReader,
  LocalAdmin,
  MergeRevisionOptions,
  MergeRevisionResult,
  Provider,
  ProviderChange,
  RevisionReader,
  RevisionWriter,
  UpdateRevisionBranchResult,
  WorkItemReader,
  WorkItemWriter,
} from '../types.ts';
import { createLocalChecksRunner, type LocalChecksRunnerOptions } from './create-local-checks-runner.ts';
import { createLocalHistory } from './create-local-history.ts';
import { createGitSpecReader } from './git/create-git-spec-reader.ts';
import { type IntegrateRevisionParams, integrateRevision } from './git/integrate-revision.ts';
import { integrateWithSharedRemote } from './git/integrate-with-shared-remote.ts';
import { readChecksOutputTail } from './git/read-checks-output-tail.ts';
import { rebaseRevision } from './git/rebase-revision.ts';

export type LocalProviderOptions = {
  repoRoot: string;
  defaultBranch: string;
  /** Relative to the repository root, e.g. `docs/specs`. */
  specsDir: string;
  /** Null or blank: no checks, every new head's pipeline is `success` at once. */
  checksCommand: string | null;
  checksTimeoutMs: number;
  /** Where the checks' logs are kept. */
  logsDir: string;
  /** Epoch milliseconds for tracker timestamps. Default `Date.now`. */
  now?: () => number;
  logger: Logger;
  /** How `mergeRevision` integrates (`flotilla merge --merge|--squash|--rebase`); default fast-forward when possible. */
  mergeMethod?: 'merge' | 'squash' | 'rebase';
  /** Test seam for the checks (default `runLocalChecks`). */
  runChecks?: LocalChecksRunnerOptions['runChecks'];
  /**
   * Cluster mode: the cluster's PostgreSQL (src/storage/README.md "Two backends"), where the tracker lives
   * instead of the database below, so every machine sees the same items; the caller closes it.
   */
  trackerState?: SqlConnection;
  /**
   * Cluster mode: the git remote the machines share (`cluster.remote`). A merge first brings the default
   * branch up to the remote's, then pushes it there (git/integrate-with-shared-remote.ts). Absent: merges
   * stay in this clone and nothing is pushed.
   */
  sharedRemote?: string;
} & (
  | /** An open database; the caller closes it. */ { db: Database; dbPath?: undefined }
  | /** Opened (and migrated) here; `close()` closes it. */ { dbPath: string; db?: undefined }
);

export type LocalProvider = Provider & {
  localAdmin: LocalAdmin;
  history: HistoryReader;
  /** The SQLite tracker underneath, for the CLI's `work`/`merge` commands and tests (a human's edits). */
  tracker: SqliteTracker;
  /**
   * Cancels the checks in flight (their heads stay pending, to run again at the next start), waits until
   * their commands and worktrees are gone, then closes the database if the provider opened it.
   */
  close(): Promise<void>;
  /**
   * Waits for every checks run in flight and (re)starts the checks of open revisions whose current head is
   * still pending with nothing running, e.g. after a crash; resolves once nothing runs.
   */
  runPendingChecks(): Promise<void>;
  /** Says `revisions` whenever a checks result is recorded (Provider.onChange). */
  onChange(listener: (change: ProviderChange) => void): () => void;
};

/** The author and committer of revision commits. */
export const LOCAL_REVISION_IDENTITY: GitIdentity = { name: 'Flotilla', email: 'flotilla@localhost' };

/**
 * The local provider (docs/architecture.md §Local provider): work items, revisions, reviews and comments in
 * SQLite (the tracker), revision branches written with git plumbing, checks in temporary worktrees, specs
 * read from the default branch. The user's working tree, index and HEAD are never touched.
 */
export function createLocalProvider(options: LocalProviderOptions): LocalProvider {
  const { repoRoot, defaultBranch, logger } = options;
  const ownsDatabase = options.db === undefined;
  const db = options.db ?? openDatabase(options.dbPath);
  const tracker = createSqliteTracker(options.trackerState ?? db, { now: options.now ?? (() => Date.now()) });
  const checksCommand = options.checksCommand?.trim() ? options.checksCommand : null;
  const changeListeners = new Set<(change: ProviderChange) => void>();
  const checks = createLocalChecksRunner({
    repoRoot,
    revisions: tracker.revisions,
    checksCommand,
    checksTimeoutMs: options.checksTimeoutMs,
    logsDir: options.logsDir,
    logger,
    runChecks: options.runChecks,
    onRecorded: () => {
      for (const listener of changeListeners) {
        try {
          listener('revisions');
        } catch (error) {
          logger.error('a provider change listener failed', { error: messageOf(error) });
        }
      }
    },
  });
  const { workItems, revisions } = tracker;

  const { workItemReader, workItemWriter } = buildWorkItemPorts(tracker);

  const revisionReader: RevisionReader = {
    listRevisions: async () => revisions.listRevisions(),
    getRevision: async (id) => revisions.getRevision(id),
    async getRevisionFiles(id) {
      const revision = revisions.getRevision(id);
      if (revision === null) {
        throw new Error(`revision #${id} does not exist; expected the id of an existing revision`);
      }
      // Revision commits have exactly one parent: the default branch head the patch was applied to.
      return listChangedFiles(repoRoot, `${revision.headSHA}^1`, revision.headSHA).catch((error: unknown) => {
        throw new Error(
          `revision #${id}: cannot list its files at ${revision.headSHA}: ${messageOf(error)}`,
          {
            cause: error,
          },
        );
      });
    },
    getReviewHistory: async (id) => revisions.getReviewHistory(id),
    async getChecksOutputTail(id) {
      const pipeline = revisions.getRevision(id)?.pipeline;
      if (pipeline?.status !== 'failure' || pipeline.url === null) return null;
      return readChecksOutputTail(pipeline.url);
    },
  };

  const revisionWriter: RevisionWriter = {
    async createFromPatch(input) {
      const workItem = workItems.getWorkItem(input.workItemID);
      if (workItem === null) {
        throw new Error(
          `revision for work item #${input.workItemID}: the work item does not exist; nothing was written`,
        );
      }
      const branchRef = buildBranchRef(input.branchName);
      const previousSHA = await readRef(repoRoot, branchRef);
      // Throws PatchApplyError (naming the files) or a plain Error before any ref is written.
      const branch = await createBranchFromPatch({
        repoRoot,
        defaultBranch,
        branchName: input.branchName,
        patch: input.patch,
        commitMessage: buildCommitMessage(workItem.id, input.title || workItem.title),
        author: LOCAL_REVISION_IDENTITY,
        ...(input.base !== undefined && { base: input.base }),
      });
      let revision: ReturnType<typeof revisions.recordRevision>;
      try {
        revision = revisions.recordRevision({
          workItemID: workItem.id,
          branchName: input.branchName,
          patch: input.patch,
          headSHA: branch.headSHA,
          title: input.title,
          body: input.body,
        });
      } catch (error) {
        // All or nothing: put the branch back where it was so no ref outlives the failed write.
        await restoreRef(repoRoot, branchRef, branch.headSHA, previousSHA).catch((restoreError: unknown) => {
          logger.error('could not restore the revision branch', {
            branch: input.branchName,
            error: messageOf(restoreError),
          });
        });
        throw error;
      }
      logger.info('revision pushed', {
        revisionID: revision.id,
        workItemID: workItem.id,
        head: branch.headSHA,
      });
      if (checksCommand === null) {
        revisions.setPipeline(revision.id, branch.headSHA, { status: 'success' });
        return revisions.getRevision(revision.id) ?? revision;
      }
      checks.schedule(revision.id);
      return revision;
    },
    updateBody: async (revisionID, body) => revisions.updateRevisionBody(revisionID, body),
    postReview: async (revisionID, review) => revisions.postReview(revisionID, review),
    updateReview: async (revisionID, reviewID, review) =>
      revisions.updateReview(revisionID, reviewID, review),
    postComment: async (revisionID, body) => revisions.postComment(revisionID, body),
    mergeRevision,
    updateRevisionBranch,
    async deleteRevisionBranch(revisionID) {
      const revision = revisions.getRevision(revisionID);
      if (revision === null) throw new Error(`revision #${revisionID} does not exist`);
      return deleteRevisionBranch(repoRoot, revision.headRef, revision.headSHA);
    },
  };

  /** What a human does from the CLI that only this tracker can do, each command in one transaction. */
  const localAdmin: LocalAdmin = {
    listAllWorkItems: async () => workItems.listWorkItems({ includeClosed: true }),
    getLabels: async (id) => {
      if (workItems.getWorkItem(id) === null) throw new Error(`work item #${id} does not exist`);
      return workItems.getWorkItemLabels(id);
    },
    createWorkItem: async (input, comment) =>
      tracker.transaction(() => {
        const created = workItems.createWorkItem(input);
        if (comment !== null) workItems.addComment(created.id, comment(created));
        return created;
      }),
    editWorkItem: async (id, edit) =>
      tracker.transaction(() => {
        if (edit.title !== null) workItems.setTitle(id, edit.title);
        if (edit.body !== null || edit.labels !== null) {
          workItems.updateWorkItem(id, { body: edit.body, labels: edit.labels });
        }
        if (edit.blockedBy !== null) workItems.setBlockedBy(id, edit.blockedBy);
        const edited = workItems.getWorkItem(id);
        if (edited === null) throw new Error(`work item #${id} does not exist`);
        return edited;
      }),
    addHumanComment: async (id, comment) => workItems.addComment(id, comment.body, comment.author),
    closeWorkItem: async (id, comment) =>
      tracker.transaction(() => {
        const revisionID = workItems.getWorkItem(id)?.linkedRevision ?? null;
        if (comment !== null) workItems.addComment(id, comment.body, comment.author);
        if (revisionID !== null) revisions.closeRevision(revisionID);
        workItems.transitionStatus(id, 'closed');
        return revisionID === null ? null : revisions.getRevision(revisionID);
      }),
  };

  /**
   * The merge queue's update (issue #30 §5): the revision's change replayed onto the default branch's head
   * (rebaseRevision), recorded as a new push of the revision (its checks run again, as for any new head).
   */
  async function updateRevisionBranch(
    revisionID: string,
    expectedHeadSHA: string,
  ): Promise<UpdateRevisionBranchResult> {
    const revision = revisions.getRevision(revisionID);
    if (revision === null || revisions.getRevisionState(revisionID) !== 'open') {
      throw new Error(`revision #${revisionID} is not open; only open revisions are brought up to date`);
    }
    if (revision.headSHA !== expectedHeadSHA) {
      throw new Error(
        `revision #${revisionID} is at ${revision.headSHA.slice(0, 12)}, not ${expectedHeadSHA.slice(0, 12)}; nothing was rebased`,
      );
    }
    if (revision.workItemID === null) throw new Error(`revision #${revisionID} has no work item`);
    const result = await rebaseRevision({
      repoRoot,
      defaultBranch,
      branchName: revision.headRef,
      headSHA: revision.headSHA,
      committer: LOCAL_REVISION_IDENTITY,
    });
    if (result.outcome === 'up-to-date') return { outcome: 'up-to-date', revision };
    if (result.outcome === 'conflict') return result;
    const pushed = revisions.recordRevision({
      workItemID: revision.workItemID,
      branchName: revision.headRef,
      patch: result.patch,
      headSHA: result.headSHA,
      title: revision.title,
      body: revision.body,
    });
    logger.info('revision rebased by the merge queue', {
      revisionID,
      head: result.headSHA,
      changedApproved: result.changedApproved,
    });
    if (checksCommand === null) revisions.setPipeline(pushed.id, result.headSHA, { status: 'success' });
    else checks.schedule(pushed.id);
    return {
      outcome: 'rebased',
      revision: revisions.getRevision(pushed.id) ?? pushed,
      previousHeadSHA: revision.headSHA,
      changedApproved: result.changedApproved,
    };
  }

  /** One machine: integrateRevision in this clone. Cluster mode: onto the shared remote's default branch too. */
  function integrate(params: IntegrateRevisionParams) {
    const remote = options.sharedRemote;
    if (remote === undefined) return integrateRevision(params);
    return integrateWithSharedRemote({
      ...params,
      remote,
      warn: (message, error) => logger.warn(message, { error: messageOf(error) }),
    });
  }

  /**
   * The engine's merge (a human asked for it): the same integration as `flotilla merge` (see
   * integrateRevision for how the user's checkout is protected), then one tracker transaction marks the
   * revision merged and closes the item. The revision branch is kept.
   */
  async function mergeRevision(
    revisionID: string,
    mergeOptions: MergeRevisionOptions = {},
  ): Promise<MergeRevisionResult> {
    const revision = revisions.getRevision(revisionID);
    if (revision === null) {
      throw new Error(`revision #${revisionID} does not exist; expected the id of an open revision`);
    }
    const state = revisions.getRevisionState(revisionID);
    if (state !== 'open')
      throw new Error(`revision #${revisionID} is ${state}; only open revisions are merged`);
    const item = revision.workItemID === null ? null : workItems.getWorkItem(revision.workItemID);
    if (item === null || item.linkedRevision !== revision.id) {
      throw new Error(`revision #${revisionID} is not the revision of a work item; merge it by hand`);
    }
    if (item.status !== 'approved') {
      throw new Error(
        `#${item.id} is ${item.status}, not approved; only approved items are merged (nothing was changed)`,
      );
    }
    if (mergeOptions.expectedHeadSHA !== undefined && mergeOptions.expectedHeadSHA !== revision.headSHA) {
      throw new Error(
        `revision #${revisionID} is at ${revision.headSHA.slice(0, 12)}, not ${mergeOptions.expectedHeadSHA.slice(0, 12)}; nothing was merged`,
      );
    }
    const result = await integrate({
      ...(mergeOptions.fastForwardOnly === true && { fastForwardOnly: true }),
      repoRoot,
      defaultBranch,
      branchName: revision.headRef,
      headSHA: revision.headSHA,
      message: buildMergeMessage(revision, item.id, options.mergeMethod, mergeOptions.requestedBy),
      fallbackIdentity: LOCAL_REVISION_IDENTITY,
      ...(options.mergeMethod !== undefined && { method: options.mergeMethod }),
    });
    try {
      revisions.markRevisionMerged(revision.id, { closeWorkItem: true });
    } catch (error) {
      throw new Error(
        `${defaultBranch} now contains revision #${revision.id} (${result.mergedSHA.slice(0, 12)}), but the tracker could not record it: ${messageOf(error)}; close the item with \`flotilla work transition ${item.id} closed\``,
        { cause: error },
      );
    }
    logger.info('revision merged', {
      revisionID: revision.id,
      workItemID: item.id,
      strategy: result.strategy,
      head: result.mergedSHA,
    });
    const closed = workItems.getWorkItem(item.id) ?? { ...item, status: 'closed', linkedRevision: null };
    return {
      workItem: closed,
      strategy: result.strategy,
      mergedSHA: result.mergedSHA,
      previousSHA: result.previousSHA,
      updatedWorktree: result.updatedWorktree,
    };
  }

  return {
    workItemReader,
    workItemWriter,
    revisionReader,
    revisionWriter,
    specReader: createGitSpecReader({ repoRoot, defaultBranch, specsDir: options.specsDir }),
    localAdmin,
    history: createLocalHistory(tracker, options.logsDir),
    tracker,
    async close() {
      await checks.stop();
      if (ownsDatabase && db.open) db.close();
    },
    runPendingChecks: () => checks.runPending(),
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
  };
}

/**
 * The merge commit's message (or the squashed commit's): the engine's names the revision by its number,
 * `flotilla merge`'s (`requestedBy`) as the CLI names it (`r7`).
 */
function buildMergeMessage(
  revision: Revision,
  itemID: string,
  method: 'merge' | 'squash' | 'rebase' | undefined,
  requestedBy: string | undefined,
): string {
  const name = requestedBy === undefined ? `#${revision.id}` : revisionName(revision);
  const by = requestedBy ?? 'the flotilla engine';
  if (method === 'squash') {
    const body = revision.body.trim() === '' ? '' : `${revision.body.trim()}\n\n`;
    return `${revision.title} (#${itemID})\n\n${body}Work item #${itemID}, revision ${name}, squashed by ${by}.\n`;
  }
  return `Merge ${revision.headRef}: ${revision.title}\n\nWork item #${itemID}, revision ${name}, merged by ${by}.\n`;
}

function buildCommitMessage(workItemID: string, title: string): string {
  return `${title}\n\nFlotilla revision for work item #${workItemID}.\n`;
}

async function readRef(repoRoot: string, ref: string): Promise<string | null> {
  const { exitCode, stdout } = await runGit(['rev-parse', '--verify', '--quiet', ref], {
    cwd: repoRoot,
    okExitCodes: [0, 1],
  });
  return exitCode === 0 ? stdout.trim() : null;
}

/** Compare-and-swap back to `previousSHA` (or delete the branch), only if it still points at `headSHA`. */
async function restoreRef(
  repoRoot: string,
  ref: string,
  headSHA: string,
  previousSHA: string | null,
): Promise<void> {
  const args =
    previousSHA === null ? ['update-ref', '-d', ref, headSHA] : ['update-ref', ref, previousSHA, headSHA];
  await runGit(args, { cwd: repoRoot });
}

/** The work item reader and writer over the tracker (an update is one transaction). */
function buildWorkItemPorts(tracker: SqliteTracker): {
  workItemReader: WorkItemReader;
  workItemWriter: WorkItemWriter;
} {
  const { workItems } = tracker;
  const workItemReader: WorkItemReader = {
    listWorkItems: async () => workItems.listWorkItems(),
    getWorkItem: async (id) => workItems.getWorkItem(id),
    getWorkItemBody: async (id) => workItems.getWorkItemBody(id),
    listComments: async (id) =>
      workItems
        .getWorkItemComments(id)
        .map((comment) => ({ author: comment.author, body: comment.body, createdAt: comment.createdAt })),
  };

  const workItemWriter: WorkItemWriter = {
    transitionStatus: async (id, status) => workItems.transitionStatus(id, status),
    createWorkItem: async (input) => workItems.createWorkItem(input),
    updateWorkItem: async (id, update) =>
      tracker.transaction(() => {
        if (update.title != null) workItems.setTitle(id, update.title);
        workItems.updateWorkItem(id, { body: update.body, labels: update.labels });
      }),
    addComment: async (id, body) => workItems.addComment(id, body),
  };

  return { workItemReader, workItemWriter };
}
