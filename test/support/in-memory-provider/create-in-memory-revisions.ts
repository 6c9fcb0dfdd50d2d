import type {
  AgentReview,
  AgentReviewComment,
  Pipeline,
  PipelineStatus,
  Revision,
} from '../../../src/domain/index.ts';
import { type RevisionFeedback, reviewStateForVerdict } from '../../../src/domain/index.ts';
import type { CreateRevisionInput, RevisionReader, RevisionWriter } from '../../../src/providers/types.ts';
import { parsePatchFiles } from '../../../src/shared/parse-patch-files.ts';
import type { PatchApplyCheck } from './check-patch-applies.ts';
import {
  buildFakeSHA,
  type InMemoryReviewRecord,
  type InMemoryReviewState,
  type InMemoryRevisionRecord,
  type InMemoryWorld,
} from './in-memory-world.ts';

export interface InMemoryRevisionOptions {
  /** Pipeline of a new revision and after every push; `success` simulates "no CI". */
  initialPipelineStatus: PipelineStatus;
  applyPatch: PatchApplyCheck;
  /** Author of engine-created revisions and engine reviews. */
  engineAuthor: string;
}

/** A revision opened by "a human" (or another tool) through the control. */
export interface HumanRevisionInput {
  branchName: string;
  workItemID?: string | null;
  title?: string;
  body?: string;
  patch?: string;
  /** Default: the provider's initial pipeline status. */
  pipeline?: PipelineStatus | Pipeline | null;
  author?: string;
  isDraft?: boolean;
}

export interface HumanReviewInput {
  author: string;
  state: InMemoryReviewState;
  body: string;
  comments?: AgentReviewComment[];
}

export interface PipelineDetails {
  url?: string | null;
  reason?: string | null;
}

export function createInMemoryRevisions(world: InMemoryWorld, options: InMemoryRevisionOptions) {
  function record(id: string): InMemoryRevisionRecord {
    const found = world.revisions.get(id);
    if (!found) throw new Error(`in-memory provider: revision ${id} does not exist`);
    return found;
  }

  function openRecord(id: string): InMemoryRevisionRecord {
    const found = record(id);
    if (found.state !== 'open') throw new Error(`in-memory provider: revision ${id} is ${found.state}`);
    return found;
  }

  function toRevision(revision: InMemoryRevisionRecord): Revision {
    return {
      id: revision.id,
      title: revision.title,
      url: revision.url,
      headSHA: revision.headSHA,
      headRef: revision.branchName,
      author: revision.author,
      body: revision.body,
      isDraft: revision.isDraft,
      workItemID: revision.workItemID,
      pipeline: revision.pipeline === null ? null : { ...revision.pipeline },
      reviewID: revision.reviewID,
    };
  }

  function push(revision: InMemoryRevisionRecord, patch: string): void {
    revision.patches.push(patch);
    revision.patch = patch;
    revision.headSHA = buildFakeSHA('revision', revision.id, String(revision.patches.length), patch);
    revision.pipeline = buildPipeline(options.initialPipelineStatus);
  }

  function insert(fields: {
    branchName: string;
    workItemID: string | null;
    title: string;
    body: string;
    patch: string;
    author: string;
    isDraft: boolean;
  }): InMemoryRevisionRecord {
    const id = world.nextNumber();
    const revision: InMemoryRevisionRecord = {
      id,
      title: fields.title,
      body: fields.body,
      branchName: fields.branchName,
      workItemID: fields.workItemID,
      headSHA: '',
      patch: '',
      patches: [],
      pipeline: null,
      reviewID: null,
      state: 'open',
      author: fields.author,
      isDraft: fields.isDraft,
      url: `memory://revisions/${id}`,
      comments: [],
      reviews: [],
      feedback: [],
      feedbackReplies: [],
    };
    push(revision, fields.patch);
    world.revisions.set(id, revision);
    return revision;
  }

  function addReview(revision: InMemoryRevisionRecord, review: Omit<InMemoryReviewRecord, 'id'>): string {
    const id = world.nextReviewID();
    revision.reviews.push({ id, ...review, comments: review.comments.map((comment) => ({ ...comment })) });
    return id;
  }

  function postEngineReview(revision: InMemoryRevisionRecord, review: AgentReview): string {
    const id = addReview(revision, {
      author: options.engineAuthor,
      state: reviewStateForVerdict(review.verdict),
      body: review.summary,
      comments: review.comments,
    });
    revision.reviewID = id;
    return id;
  }

  const reader: RevisionReader = {
    async listRevisions() {
      return [...world.revisions.values()].filter((revision) => revision.state === 'open').map(toRevision);
    },
    async getRevision(id) {
      const revision = world.revisions.get(id);
      return revision ? toRevision(revision) : null;
    },
    async getRevisionFiles(id) {
      return parsePatchFiles(record(id).patch);
    },
    async getChecksOutputTail(id) {
      record(id);
      // The double keeps no checks output; the prompt falls back to the pipeline's reason.
      return null;
    },
    /** Like the GitHub provider: the feedback not yet named by one of the engine's replies. */
    async listFeedback(id) {
      const revision = record(id);
      const answered = new Set(revision.feedbackReplies.flatMap((reply) => reply.feedbackIDs));
      return structuredClone(revision.feedback.filter((entry) => !answered.has(entry.id)));
    },
    async getReviewHistory(id) {
      const { reviews } = record(id);
      return {
        reviews: reviews.map(({ author, state, body }) => ({ author, state, body })),
        inlineComments: reviews.flatMap((review) =>
          review.comments.map((comment) => ({
            path: comment.path,
            line: comment.line,
            author: review.author,
            body: comment.body,
          })),
        ),
      };
    },
  };

  const writer: RevisionWriter = {
    async createFromPatch(input: CreateRevisionInput) {
      options.applyPatch(input);
      const workItem = world.workItems.get(input.workItemID);
      if (!workItem) throw new Error(`in-memory provider: work item ${input.workItemID} does not exist`);
      const existing = [...world.revisions.values()].find(
        (revision) => revision.state === 'open' && revision.branchName === input.branchName,
      );
      if (existing) {
        // Like the GitHub provider: the open revision for the branch gets the new commit; its title and body
        // stay (updateBody changes those).
        push(existing, input.patch);
        return toRevision(existing);
      }
      const created = insert({
        branchName: input.branchName,
        workItemID: input.workItemID,
        title: input.title !== '' ? input.title : workItem.title,
        body: input.body,
        patch: input.patch,
        author: options.engineAuthor,
        isDraft: false,
      });
      return toRevision(created);
    },
    async updateBody(revisionID, body) {
      record(revisionID).body = body;
    },
    async postReview(revisionID, review) {
      return postEngineReview(openRecord(revisionID), review);
    },
    async updateReview(revisionID, reviewID, review) {
      const revision = openRecord(revisionID);
      const earlier = revision.reviews.find((candidate) => candidate.id === reviewID);
      if (!earlier) {
        throw new Error(`in-memory provider: review ${reviewID} does not exist on revision ${revisionID}`);
      }
      // Like the GitHub provider: dismiss the earlier review, then post the new one.
      earlier.state = 'DISMISSED';
      return postEngineReview(revision, review);
    },
    async postComment(revisionID, body) {
      record(revisionID).comments.push(body);
    },
    async replyToFeedback(revisionID, feedback, body) {
      record(revisionID).feedbackReplies.push({ feedbackIDs: feedback.map((entry) => entry.id), body });
    },
  };

  const control = {
    addRevision(input: HumanRevisionInput): Revision {
      const workItemID = input.workItemID ?? null;
      const revision = insert({
        branchName: input.branchName,
        workItemID,
        title:
          input.title ??
          (workItemID === null ? undefined : world.workItems.get(workItemID)?.title) ??
          input.branchName,
        body: input.body ?? (workItemID === null ? '' : `Closes #${workItemID}`),
        patch: input.patch ?? '',
        author: input.author ?? 'human',
        isDraft: input.isDraft ?? false,
      });
      if (input.pipeline !== undefined) revision.pipeline = toPipeline(input.pipeline);
      return toRevision(revision);
    },
    /** A new commit on the revision's branch: new head SHA, pipeline back to the initial status. */
    pushToRevision(id: string, patch: string): Revision {
      const revision = record(id);
      push(revision, patch);
      return toRevision(revision);
    },
    /** Null simulates a failed CI fetch (the pipeline is unknown). */
    setPipeline(id: string, status: PipelineStatus | null, details: PipelineDetails = {}): void {
      record(id).pipeline = status === null ? null : buildPipeline(status, details);
    },
    /** Closes without merging; the revision leaves listRevisions and unlinks from its work item. */
    closeRevision(id: string): void {
      record(id).state = 'closed';
    },
    /**
     * Merges: the revision leaves listRevisions, the default branch moves, and (like a `Closes #n` body on
     * GitHub) the linked work item is closed unless `closeWorkItem` is false.
     */
    mergeRevision(id: string, mergeOptions: { closeWorkItem?: boolean } = {}): void {
      const revision = openRecord(id);
      revision.state = 'merged';
      world.commitToDefaultBranch(`merge revision ${id}`);
      const workItem = revision.workItemID === null ? undefined : world.workItems.get(revision.workItemID);
      if (workItem && mergeOptions.closeWorkItem !== false) workItem.state = 'closed';
    },
    /** A review by someone other than the engine; does not change `reviewID`. */
    addReview(revisionID: string, review: HumanReviewInput): string {
      return addReview(record(revisionID), { ...review, comments: review.comments ?? [] });
    },
    /** A human's review, line comment or mention that steers the engine (what `listFeedback` reports). */
    addFeedback(revisionID: string, feedback: RevisionFeedback): void {
      record(revisionID).feedback.push(structuredClone(feedback));
    },
    revisionRecord(id: string): InMemoryRevisionRecord {
      return structuredClone(record(id));
    },
    /** Every revision, closed and merged ones included. */
    revisionRecords(): InMemoryRevisionRecord[] {
      return structuredClone([...world.revisions.values()]);
    },
    revisionComments(id: string): string[] {
      return [...record(id).comments];
    },
    reviews(revisionID: string): InMemoryReviewRecord[] {
      return structuredClone(record(revisionID).reviews);
    },
  };

  return { reader, writer, control };
}

function buildPipeline(status: PipelineStatus, details: PipelineDetails = {}): Pipeline {
  if (status === 'pending') return { status, url: null, reason: null };
  if (status !== 'failure') return { status, url: details.url ?? null, reason: null };
  return { status, url: details.url ?? null, reason: details.reason ?? 'checks failed' };
}

function toPipeline(value: PipelineStatus | Pipeline | null): Pipeline | null {
  if (value === null) return null;
  return typeof value === 'string' ? buildPipeline(value) : { ...value };
}
