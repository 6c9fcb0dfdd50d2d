import type { WaitingSession } from './agent-questions.ts';
import type { ImplementorResult, ModeReport, PlannerResult } from './agent-result.ts';
import type { PlanRevision } from './proposal.ts';
import type { AgentReview } from './review.ts';
import type { PipelineStatus } from './revision.ts';
import type { RevisionFeedback } from './revision-feedback.ts';
import type { WorkItemStatus } from './work-item.ts';
import type { TransitionCause } from './work-item-transitions.ts';

/** Commands are what handlers ask for; only the command executor turns them into external writes. */
export type EngineCommand =
  | TransitionWorkItemStatus
  | CreateWorkItem
  | UpdateWorkItem
  | CommentOnWorkItem
  | CreateRevisionFromPatch
  | UpdateRevision
  | PostRevisionReview
  | UpdateRevisionReview
  | CommentOnRevision
  | ReplyToRevisionFeedback
  | MergeRevision
  | AdvanceMergeQueue
  | RequestPlannerRun
  | RequestImplementorRun
  | RequestReviewerRun
  | CancelPlannerRun
  | CancelImplementorRun
  | CancelReviewerRun
  | ApplyPlannerResult
  | ApplyImplementorResult
  | ApplyReviewerResult
  | DiscardWaitingSession
  | ProposePlan
  | MarkProposalStale
  | ProposeModeResult
  | ApplyModeResult;

export type EngineCommandType = EngineCommand['type'];

export interface TransitionWorkItemStatus {
  type: 'transitionWorkItemStatus';
  workItemID: string;
  newStatus: WorkItemStatus;
  cause: TransitionCause;
}

export interface CreateWorkItem {
  type: 'createWorkItem';
  title: string;
  body: string;
  labels: string[];
  blockedBy: string[];
}

export interface UpdateWorkItem {
  type: 'updateWorkItem';
  workItemID: string;
  body: string | null;
  labels: string[] | null;
}

export interface CommentOnWorkItem {
  type: 'commentOnWorkItem';
  workItemID: string;
  body: string;
}

export interface CreateRevisionFromPatch {
  type: 'createRevisionFromPatch';
  workItemID: string;
  patch: string;
  branchName: string;
  body: string;
  /** The commit the patch is against (ImplementorResult.base). */
  base?: string;
}

export interface UpdateRevision {
  type: 'updateRevision';
  revisionID: string;
  body: string;
}

export interface PostRevisionReview {
  type: 'postRevisionReview';
  revisionID: string;
  review: AgentReview;
}

export interface UpdateRevisionReview {
  type: 'updateRevisionReview';
  revisionID: string;
  review: AgentReview;
}

export interface CommentOnRevision {
  type: 'commentOnRevision';
  revisionID: string;
  body: string;
}

/**
 * Answers humans' feedback where they wrote it, through the provider's optional
 * `RevisionWriter.replyToFeedback`: a line comment in its review thread, reviews and pull request comments
 * in one comment quoting them. `body` is the answer (the implementor's summary and changed files).
 */
export interface ReplyToRevisionFeedback {
  type: 'replyToRevisionFeedback';
  workItemID: string;
  revisionID: string;
  feedback: RevisionFeedback[];
  body: string;
}

/**
 * Integrates the revision into the default branch, marks it merged and closes its work item, through the
 * provider's optional `RevisionWriter.mergeRevision`. Only ever for an approved item (a human's decision).
 */
export interface MergeRevision {
  type: 'mergeRevision';
  workItemID: string;
  revisionID: string;
}

/**
 * One step of the merge queue for its head (issue #30 §5): bring the revision onto the current default
 * branch (the provider's `updateRevisionBranch`), or, when it is already there with green checks, merge it
 * (fast-forward only, so what merges is exactly what the checks passed on). `headSHA` and
 * `pipelineStatus` are what the handler saw: a step for a head already stepped at that status is a no-op.
 */
export interface AdvanceMergeQueue {
  type: 'advanceMergeQueue';
  workItemID: string;
  revisionID: string;
  headSHA: string;
  pipelineStatus: PipelineStatus | null;
}

export interface RequestPlannerRun {
  type: 'requestPlannerRun';
  specPaths: string[];
  /** The blob SHA of each spec at request time: what the planner is given and what gets marked planned. */
  specSHAs: Record<string, string>;
  /** Continue the planner session waiting on its questions item (`resume.waiting.workItemID`). */
  resume?: ResumeWithAnswers;
  /** A `plan-revision` run: a human rejected this plan, for this reason (issue #29). */
  revision?: PlanRevision;
}

/** Continue a waiting session with a human's answers instead of starting a new one. */
export interface ResumeWithAnswers {
  waiting: WaitingSession;
  answers: string;
}

export interface RequestImplementorRun {
  type: 'requestImplementorRun';
  workItemID: string;
  resume?: ResumeWithAnswers;
  /**
   * An automatic refinement (issue #29): a `refine` run on an item waiting in needs-refinement, or a
   * `task:refinement` item, whatever its labels ask for. Absent: the item's own mode (its `task:*` label).
   */
  mode?: 'refine';
}

export interface RequestReviewerRun {
  type: 'requestReviewerRun';
  workItemID: string;
  revisionID: string;
  resume?: ResumeWithAnswers;
}

/** Nobody answered in time: the runtime removes the kept session and worktree, the record goes. */
export interface DiscardWaitingSession {
  type: 'discardWaitingSession';
  workItemID: string;
  /** A planner's wait that the specs' change superseded: plan again once it is gone. */
  replan?: true;
}

export interface CancelPlannerRun {
  type: 'cancelPlannerRun';
}

export interface CancelImplementorRun {
  type: 'cancelImplementorRun';
  workItemID: string;
}

export interface CancelReviewerRun {
  type: 'cancelReviewerRun';
  workItemID: string;
}

export interface ApplyPlannerResult {
  type: 'applyPlannerResult';
  result: PlannerResult;
  /** The planner ran on after a human's answers: its questions item is closed, saying what was created. */
  questionsItemID?: string;
  /** An accepted proposal: its tracking item is closed afterwards, saying what was created. */
  proposalID?: string;
  /** The planner run whose result it is: its items get a `plan_summary` entry (`planApplied`). */
  sessionID?: string;
}

/**
 * `approval.plans: required`: the planner's result is validated as `applyPlannerResult` would, then stored
 * as a proposal on a `task:proposal` item of its own instead of being applied.
 */
export interface ProposePlan {
  type: 'proposePlan';
  sessionID: string;
  result: PlannerResult;
  specSHAs: Record<string, string>;
  basePlannedSHAs: Record<string, string>;
  /** The rejected proposal a `plan-revision` run revised; null for a first plan. */
  revises: string | null;
  /** A resumed planner's questions item: closed, pointing at the proposal. */
  questionsItemID?: string;
}

/**
 * `approval.investigations` / `approval.refinements: required` (issue #29): the mode run's report is posted
 * as a proposal on a `task:proposal` item of its own; the item it is about waits in needs-refinement.
 */
export interface ProposeModeResult {
  type: 'proposeModeResult';
  workItemID: string;
  sessionID: string;
  report: ModeReport;
}

/**
 * Applies an investigation (fix items created, the report posted on the bug's item, which is closed) or a
 * refinement (the item rewritten and sent back to pending); an accepted proposal's item is closed after.
 */
export interface ApplyModeResult {
  type: 'applyModeResult';
  workItemID: string;
  sessionID: string;
  report: ModeReport;
  proposalID?: string;
}

/** The pending proposal no longer plans the approved specs: comment, close its item, `proposalStale`. */
export interface MarkProposalStale {
  type: 'markProposalStale';
  proposalID: string;
  reason: string;
  restorePlanned: boolean;
}

export interface ApplyImplementorResult {
  type: 'applyImplementorResult';
  workItemID: string;
  branchName: string;
  result: ImplementorResult;
}

export interface ApplyReviewerResult {
  type: 'applyReviewerResult';
  workItemID: string;
  revisionID: string;
  review: AgentReview;
  /** Where needs-changes sends the item: back for rework, or to a human once the review-round cap is hit. */
  needsChangesStatus: 'pending' | 'needs-refinement';
}

export type AgentRunRequestCommand = RequestPlannerRun | RequestImplementorRun | RequestReviewerRun;
