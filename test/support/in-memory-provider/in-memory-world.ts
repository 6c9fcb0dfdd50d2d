import { createHash } from 'node:crypto';
import type {
  AgentReviewComment,
  Pipeline,
  RevisionFeedback,
  SpecStatus,
} from '../../../src/domain/index.ts';

/** A work item as the fake tracker stores it: the full label set, like a GitHub issue. */
export interface InMemoryWorkItemRecord {
  id: string;
  title: string;
  body: string;
  /** Every label, reserved ones included; status, kind, priority and complexity are derived from them. */
  labels: string[];
  state: 'open' | 'closed';
  blockedBy: string[];
  createdAt: string;
  comments: string[];
}

export type InMemoryReviewState = 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED';

export interface InMemoryReviewRecord {
  id: string;
  author: string;
  state: InMemoryReviewState;
  body: string;
  comments: AgentReviewComment[];
}

export interface InMemoryRevisionRecord {
  id: string;
  title: string;
  body: string;
  branchName: string;
  workItemID: string | null;
  headSHA: string;
  /** The latest patch pushed to the branch. */
  patch: string;
  /** Every patch pushed, oldest first. */
  patches: string[];
  pipeline: Pipeline | null;
  reviewID: string | null;
  state: 'open' | 'closed' | 'merged';
  author: string;
  isDraft: boolean;
  url: string | null;
  comments: string[];
  reviews: InMemoryReviewRecord[];
  /** Humans' feedback steering the engine (`control.addFeedback`), oldest first. */
  feedback: RevisionFeedback[];
  /** The engine's answers to it (`replyToFeedback`), oldest first. */
  feedbackReplies: { feedbackIDs: string[]; body: string }[];
}

export interface InMemorySpecRecord {
  filePath: string;
  frontmatterStatus: SpecStatus;
  content: string;
  blobSHA: string;
}

/** Everything the fake tracker knows; shared by the work item, revision and spec parts. */
export interface InMemoryWorld {
  workItems: Map<string, InMemoryWorkItemRecord>;
  revisions: Map<string, InMemoryRevisionRecord>;
  specs: Map<string, InMemorySpecRecord>;
  specProblems: Map<string, string>;
  /** Every spec content ever written, by blob SHA (a git object database never forgets either). */
  specBlobs: Map<string, string>;
  defaultBranchSHA: string;
  /** Next id for work items and revisions: one shared sequence, like GitHub issue and PR numbers. */
  nextNumber(): string;
  /** Next review id, from its own sequence (starting at 1000001) so it can never pass for an item id. */
  nextReviewID(): string;
  /** Moves the default branch to a new commit. */
  commitToDefaultBranch(reason: string): void;
  now(): number;
}

export function createInMemoryWorld(now: () => number): InMemoryWorld {
  let lastNumber = 0;
  let lastReview = 1_000_000;
  let commits = 0;
  const world: InMemoryWorld = {
    workItems: new Map(),
    revisions: new Map(),
    specs: new Map(),
    specProblems: new Map(),
    specBlobs: new Map(),
    defaultBranchSHA: buildFakeSHA('default-branch', '0'),
    nextNumber: () => String(++lastNumber),
    nextReviewID: () => String(++lastReview),
    commitToDefaultBranch(reason) {
      commits += 1;
      world.defaultBranchSHA = buildFakeSHA('default-branch', String(commits), reason);
    },
    now,
  };
  return world;
}

/** A 40-hex-digit SHA-1 of the parts: fake commit ids that look real and are deterministic. */
export function buildFakeSHA(...parts: string[]): string {
  return createHash('sha1').update(parts.join('\0')).digest('hex');
}

/** The SHA git gives a blob with this content (`git hash-object`). */
export function buildGitBlobSHA(content: string): string {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}
