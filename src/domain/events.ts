import type { AgentConversation, ConversationStatus } from './agent-conversations.ts';
import type { AgentNote } from './agent-notes.ts';
import type { KeptSession } from './agent-questions.ts';
import type {
  AgentRole,
  ImplementorResult,
  ModeReport,
  PlannerResult,
  ReviewerResult,
} from './agent-result.ts';
import type { AgentFailureReason, AgentUsage } from './agent-run.ts';
import type { BudgetPause, BudgetStop } from './budget.ts';
import type { AgentRunRequestCommand, EngineCommand } from './commands.ts';
import type { MergeConflict, MergeQueueOutcome } from './merge-queue.ts';
import type { Proposal } from './proposal.ts';
import type { ProposalEdit } from './proposal-comments.ts';
import type { PipelineStatus, Revision } from './revision.ts';
import type { RevisionFeedback } from './revision-feedback.ts';
import type { SpecStatus } from './spec.ts';
import type { WorkItem, WorkItemMode, WorkItemStatus } from './work-item.ts';

/** Everything the engine reacts to: poller observations, agent lifecycle, command results, user actions. */
export type EngineEvent =
  | WorkItemChanged
  | RevisionChanged
  | RevisionFeedbackReceived
  | RevisionFeedbackAnswered
  | SpecChanged
  | PlannerRequested
  | PlannerStarted
  | PlannerCompleted
  | PlannerFailed
  | ImplementorRequested
  | ImplementorStarted
  | ImplementorCompleted
  | ImplementorFailed
  | ReviewerRequested
  | ReviewerStarted
  | ReviewerCompleted
  | ReviewerFailed
  | AgentAskedQuestions
  | QuestionsAnswered
  | QuestionsTimedOut
  | WaitingSessionDiscarded
  | CommandRejected
  | CommandFailed
  | MergeQueueStepped
  | DispatchQueued
  | DispatchDropped
  | AgentUsageReported
  | AgentNoted
  | ConversationCreated
  | ConversationAnswered
  | WorkItemOverBudget
  | BudgetPauseChanged
  | ErrorRecorded
  | UserRequestedImplementorRun
  | UserRequestedReviewerRun
  | UserCancelledRun
  | UserTransitionedStatus
  | UserRequestedMerge
  | UserRequestedPlannerRun
  | AccountSwitched
  | ProposalCreated
  | ProposalDecided
  | ProposalStale
  | ModeResultApplied
  | PlanApplied;

export type EngineEventType = EngineEvent['type'];

// --- poller observations -------------------------------------------------------------------------

export interface WorkItemChanged {
  type: 'workItemChanged';
  workItemID: string;
  /** The item as it is now; null when it no longer exists at all. */
  workItem: WorkItem | null;
  oldStatus: WorkItemStatus | null;
  newStatus: WorkItemStatus | null;
}

export interface RevisionChanged {
  type: 'revisionChanged';
  revisionID: string;
  workItemID: string | null;
  /** The revision as it is now; null when it was removed (closed without merge, deleted). */
  revision: Revision | null;
  oldPipelineStatus: PipelineStatus | null;
  /** Null when the pipeline is unknown (or the revision was removed). */
  newPipelineStatus: PipelineStatus | null;
}

/**
 * Humans' feedback on an item's revision that the engine has not seen yet (the feedback poller: a changes
 * request, an approval, a mention of the trigger). Only authors the provider trusts; never Flotilla's own.
 */
export interface RevisionFeedbackReceived {
  type: 'revisionFeedbackReceived';
  workItemID: string;
  revisionID: string;
  feedback: RevisionFeedback[];
  at: number;
}

/** The implementor's answer was posted on the threads of this feedback (`replyToRevisionFeedback`). */
export interface RevisionFeedbackAnswered {
  type: 'revisionFeedbackAnswered';
  workItemID: string;
  feedbackIDs: string[];
  at: number;
}

export interface SpecChanged {
  type: 'specChanged';
  filePath: string;
  blobSHA: string;
  frontmatterStatus: SpecStatus;
  changeType: 'added' | 'modified' | 'removed';
  /** The default branch's head when the change was seen. */
  commitSHA: string;
}

// --- agent lifecycle -----------------------------------------------------------------------------

interface RunRequested {
  sessionID: string;
  /** Epoch milliseconds. */
  at: number;
  /** The configured account the run uses (config `accounts`); absent when its runtime has none. */
  account?: string;
  /** Set when the run resumes a session that asked questions: which session of the item/role it is (2, 3…). */
  sessionNumber?: number;
}

interface RunStarted {
  sessionID: string;
  logFilePath: string | null;
  at: number;
  /** The adapter's runtime name (`claude`, `scripted`), when it says. */
  runtime?: string;
}

interface RunEnded {
  sessionID: string;
  logFilePath: string | null;
  usage: AgentUsage | null;
  at: number;
}

interface RunFailedFields extends RunEnded {
  reason: AgentFailureReason;
  error: string;
  /**
   * A limit reason only: when the provider said the limit resets (epoch milliseconds); null or absent when it
   * did not say, so the runtime or account is parked for a backoff instead.
   */
  resetsAt?: number | null;
  /** With reason `budget`: which cap stopped the run, and the spend it measured. */
  budgetStop?: BudgetStop;
}

export interface PlannerRequested extends RunRequested {
  type: 'plannerRequested';
  specPaths: string[];
  specSHAs: Record<string, string>;
  /** A resume (with `sessionNumber`): the questions item whose wait it takes over. */
  questionsItemID?: string;
  /** A `plan-revision` run: the rejected proposal it revises. */
  revises?: string;
}
export interface PlannerStarted extends RunStarted {
  type: 'plannerStarted';
}
export interface PlannerCompleted extends RunEnded {
  type: 'plannerCompleted';
  specPaths: string[];
  result: PlannerResult;
}
export interface PlannerFailed extends RunFailedFields {
  type: 'plannerFailed';
  specPaths: string[];
}

export interface ImplementorRequested extends RunRequested {
  type: 'implementorRequested';
  workItemID: string;
  branchName: string;
  /** The files the scheduler expected it to change (absent: no estimate), kept to check the estimate. */
  estimatedFiles?: readonly string[];
  /** The item's mode (issue #29): an investigation or a refinement; absent: implement. */
  mode?: WorkItemMode;
  /** The model `models.implementor` chose for the item's complexity, and why. */
  model?: string;
  modelReason?: string;
}
export interface ImplementorStarted extends RunStarted {
  type: 'implementorStarted';
}
export interface ImplementorCompleted extends RunEnded {
  type: 'implementorCompleted';
  workItemID: string;
  branchName: string;
  result: ImplementorResult;
}
export interface ImplementorFailed extends RunFailedFields {
  type: 'implementorFailed';
  workItemID: string;
  branchName: string;
}

export interface ReviewerRequested extends RunRequested {
  type: 'reviewerRequested';
  workItemID: string;
  revisionID: string;
}
export interface ReviewerStarted extends RunStarted {
  type: 'reviewerStarted';
}
export interface ReviewerCompleted extends RunEnded {
  type: 'reviewerCompleted';
  workItemID: string;
  revisionID: string;
  result: ReviewerResult;
}
export interface ReviewerFailed extends RunFailedFields {
  type: 'reviewerFailed';
  workItemID: string;
  revisionID: string;
}

/**
 * A run ended by asking a human questions instead of with its result (any role): its session and worktree
 * are kept for the resume. Terminal for the run (recorded as completed, `askedQuestions`).
 */
export interface AgentAskedQuestions extends RunEnded {
  type: 'agentAskedQuestions';
  role: AgentRole;
  /**
   * The item that waits: the implementor's or reviewer's own, or the `questions` item the engine opened
   * for a planner (before this event, see `open-planner-questions-item.ts`). Null: nothing waits.
   */
  workItemID: string | null;
  revisionID: string | null;
  questions: string[];
  session: KeptSession;
}

/** A human answered a waiting item's questions (dashboard, `flotilla answer`, or a reply on the tracker). */
export interface QuestionsAnswered {
  type: 'questionsAnswered';
  workItemID: string;
  answers: string;
  /** `tracker`: found in the item's comments (already recorded there); `user`: typed in the dashboard. */
  source: 'tracker' | 'user';
  /** When the answer was read or typed (epoch ms); absent: the task context dates it by the questions. */
  at?: number;
}

/** A waiting item's questions were not answered within `questionTimeout`. */
export interface QuestionsTimedOut {
  type: 'questionsTimedOut';
  workItemID: string;
  /** The run that asked: a timer for an older wait is ignored. */
  sessionID: string;
  at: number;
}

/** The kept session and worktree of a waiting item were removed (after its question timeout). */
export interface WaitingSessionDiscarded {
  type: 'waitingSessionDiscarded';
  workItemID: string;
  at: number;
  /** The discard was a planner's wait superseded by a spec change: planning starts again. */
  replan?: true;
}

// --- command results, scheduling, errors ---------------------------------------------------------

/**
 * `duplicate`: the same run is already requested, running or queued (normal during bursts; not an error).
 * `policy`: the configured policy refused. `invalid`: the command does not fit the current state.
 */
export type RejectionKind = 'duplicate' | 'policy' | 'invalid';

export interface CommandRejected {
  type: 'commandRejected';
  command: EngineCommand;
  reason: string;
  kind: RejectionKind;
  at: number;
}

export interface CommandFailed {
  type: 'commandFailed';
  command: EngineCommand;
  error: string;
  at: number;
}

/** A run request waits: all agent slots are busy, or a retry is backing off until `notBefore`. */
export interface DispatchQueued {
  type: 'dispatchQueued';
  command: AgentRunRequestCommand;
  /**
   * `parked`: its runtime is parked by a rate or usage limit until `notBefore`. `budget`: the day's or
   * month's budget is spent; it waits for the next period or a raised cap. `resources`: the machine has
   * not the memory (or CPU) for one more agent now; `detail` says what it waits for. `conflict`: it would
   * touch a file a running agent is changing; it waits for that run to end.
   */
  reason: 'capacity' | 'backoff' | 'parked' | 'budget' | 'resources' | 'conflict';
  /** What it waits for, in words (`resources`: memory free and needed). */
  detail?: string;
  /** Epoch milliseconds before which it will not start (backoff, parking); null when only waiting for a slot. */
  notBefore: number | null;
  priority: number;
  at: number;
}

/** A queued run request was abandoned (its work item moved on, policy refused, or the engine stops). */
export interface DispatchDropped {
  type: 'dispatchDropped';
  command: AgentRunRequestCommand;
  reason: string;
  at: number;
}

/** A running session's cumulative usage so far, as its runtime streams it (one report per model request). */
export interface AgentUsageReported {
  type: 'agentUsageReported';
  sessionID: string;
  usage: AgentUsage;
  /** The model that answered, when the runtime says. */
  model: string | null;
  at: number;
}

/**
 * A running agent recorded a note through Flotilla's internal tools (issue #28 §2): validated, capped and
 * redacted by the engine before this event exists. Memories, decisions and questions are stored; a summary
 * becomes the run's live progress line.
 */
export interface AgentNoted {
  type: 'agentNoted';
  sessionID: string;
  role: AgentRole;
  /** The run's work item; null for a planner. */
  workItemID: string | null;
  runtime: string | null;
  note: AgentNote;
  at: number;
}

/** An agent asked another one (issue #28 §3); `conversation.status` is `open`, or how it ended at once. */
export interface ConversationCreated {
  type: 'conversationCreated';
  conversation: AgentConversation;
  at: number;
}

/** A conversation ended: answered, timed out, or one of its runs stopped (`AgentConversation`). */
export interface ConversationAnswered {
  type: 'conversationAnswered';
  conversationID: string;
  status: Exclude<ConversationStatus, 'open'>;
  answer: string;
  at: number;
}

/**
 * A work item cannot get another run: its spend (or the estimate of the next run) reaches `budgets.perItemUsd`
 * (scope `item`), or one of its runs was stopped at the per-run cap (scope `run`). It is parked as blocked.
 */
export interface WorkItemOverBudget {
  type: 'workItemOverBudget';
  workItemID: string;
  scope: 'item' | 'run';
  role: 'implementor' | 'reviewer';
  spentUSD: number;
  capUSD: number;
  /** The estimated cost of the refused run (scope `item`), when the refusal came before a run. */
  estimateUSD: number | null;
  at: number;
}

/** Dispatch paused (the day's or month's cap is reached) or resumed (`pause: null`). */
export interface BudgetPauseChanged {
  type: 'budgetPauseChanged';
  pause: BudgetPause | null;
  at: number;
}

/** Something went wrong outside a command: a poller failure, a bad spec, an exception in the loop. */
export interface ErrorRecorded {
  type: 'errorRecorded';
  source: string;
  message: string;
  at: number;
}

// --- user actions --------------------------------------------------------------------------------

export interface UserRequestedImplementorRun {
  type: 'userRequestedImplementorRun';
  workItemID: string;
}

export interface UserRequestedReviewerRun {
  type: 'userRequestedReviewerRun';
  workItemID: string;
}

export interface UserCancelledRun {
  type: 'userCancelledRun';
  sessionID: string;
}

export interface UserTransitionedStatus {
  type: 'userTransitionedStatus';
  workItemID: string;
  newStatus: WorkItemStatus;
}

/**
 * A merge queue step's result (`advanceMergeQueue`, issue #30 §5). `rebased` comes after the revision's own
 * `revisionChanged` (the new head, checks pending); `merged` after the item's and revision's changes.
 */
export interface MergeQueueStepped {
  type: 'mergeQueueStepped';
  workItemID: string;
  revisionID: string;
  outcome: MergeQueueOutcome;
  /** The head the step started from. */
  previousHeadSHA: string;
  /** The head after it (the rebased one; the merged default branch head for `merged`). */
  headSHA: string;
  /** `rebased`: the change is no longer what was approved (not only shifted lines): it is reviewed again. */
  changedApproved?: boolean;
  /** `conflict`: the files and hunks, for the comment and the implementor's prompt. */
  conflict?: MergeConflict;
  at: number;
}

/** Merge the approved item's revision into the default branch (and so close the item). */
export interface UserRequestedMerge {
  type: 'userRequestedMerge';
  workItemID: string;
}

/**
 * Plan the approved specs that are not planned at their current version now — after the planner failed out of
 * its attempts or was cancelled, when nothing would start it until a spec changes. With a fresh attempt budget.
 */
export interface UserRequestedPlannerRun {
  type: 'userRequestedPlannerRun';
}

/**
 * A run starts on another account of its runtime because the one used before is exhausted (a usage limit)
 * until `until`: the failover of docs/runtime-spec.md §Accounts and failover, shown in progress lines, the run's transcript and the run history.
 */
export interface AccountSwitched {
  type: 'accountSwitched';
  sessionID: string;
  runtime: string;
  from: string;
  to: string;
  /** Epoch milliseconds when `from` is available again. */
  until: number;
  at: number;
}

/** The events that end a run; accepted even while the engine is shutting down. */
export const TERMINAL_RUN_EVENT_TYPES = [
  'plannerCompleted',
  'plannerFailed',
  'implementorCompleted',
  'implementorFailed',
  'reviewerCompleted',
  'reviewerFailed',
  'agentAskedQuestions',
] as const satisfies readonly EngineEventType[];

export type TerminalRunEvent = Extract<EngineEvent, { type: (typeof TERMINAL_RUN_EVENT_TYPES)[number] }>;

export function isTerminalRunEvent(event: EngineEvent): event is TerminalRunEvent {
  return (TERMINAL_RUN_EVENT_TYPES as readonly string[]).includes(event.type);
}

// --- proposals (issue #29 §2) ------------------------------------------------------------------------

/** A planner's validated result was stored as a proposal (`approval.plans: required`) and posted. */
/**
 * An investigation's or refinement's report was applied (issue #29): its fix items created (`createdIDs`)
 * or its item rewritten. The investigation's report becomes a task context entry of each fix item.
 */
export interface ModeResultApplied {
  type: 'modeResultApplied';
  workItemID: string;
  sessionID: string;
  report: ModeReport;
  createdIDs: string[];
  at: number;
  /** A refinement's: the version of the body it wrote (`WorkItem.bodyHash`), never refined again on its own. */
  bodyHash?: string;
}

/**
 * A planner run's result was applied (issue #28 §1): the items it created and updated get a `plan_summary`
 * task context entry saying what the plan was and what it made of the specs.
 */
export interface PlanApplied {
  type: 'planApplied';
  /** The planner run whose result it was. */
  sessionID: string;
  /** The planner's own summary of the plan; null when it gave none. */
  summary: string | null;
  /** The items created, with their titles, in creation order, and the existing items it updated. */
  created: { workItemID: string; title: string }[];
  updatedIDs: string[];
  at: number;
}

export interface ProposalCreated {
  type: 'proposalCreated';
  proposal: Proposal;
  at: number;
}

/** A human accepted or rejected the pending proposal (a reply on the tracker, the CLI, or the dashboard). */
export interface ProposalDecided {
  type: 'proposalDecided';
  proposalID: string;
  decision: 'accept' | 'reject';
  /** A rejection's reason ('' when none was given); null for an acceptance. */
  reason: string | null;
  author: string;
  source: 'tracker' | 'user';
  at: number;
  /** Accepted as edited (`flotilla proposals accept --edit`): replaces the plan or report; checked when applied. */
  edited?: ProposalEdit;
  /** A rejection made of a human's plain comments (their feedback is the reason), not a `/reject`. */
  feedback?: true;
}

/**
 * The pending proposal no longer plans the approved specs (one changed while it waited, or a newer plan
 * replaced it): it is closed unapplied. `restorePlanned`: the planned SHAs go back to before it (a spec
 * changed), so the next plan sees the specs as they were last applied.
 */
export interface ProposalStale {
  type: 'proposalStale';
  proposalID: string;
  reason: string;
  restorePlanned: boolean;
  at: number;
}
