import type { ModeReport, PlannerResult } from './agent-result.ts';

/**
 * A plan waiting for a human (issue #29 §2, `approval.plans: "required"`): the planner's validated result,
 * stored instead of applied. At most one is `pending` at a time; `accepted` applies it through the command
 * executor, `rejected` starts a `plan-revision` planner run with the reason, `stale` means the approved specs
 * changed while it waited (a new plan runs).
 */
export interface Proposal {
  /** The id of its tracking work item (`task:proposal`), where it is posted and decided. */
  id: string;
  kind: ProposalKind;
  /** An investigation's or refinement's: the work item it is about; null for a plan. */
  subjectID?: string | null;
  /** An investigation's or refinement's report (its `result` is then empty); null for a plan. */
  report?: ModeReport | null;
  status: ProposalStatus;
  /** The planner run that made it. */
  sessionID: string;
  /** Spec path → blob SHA the plan was made from. */
  specSHAs: Record<string, string>;
  /**
   * Spec path → blob SHA planned before this plan (absent: never planned): what `lastPlannedSHAs` returns to
   * when the proposal is rejected or goes stale, so the next plan diffs against what was really applied.
   */
  basePlannedSHAs: Record<string, string>;
  result: PlannerResult;
  /** The rejected proposal this one revises (a `plan-revision` run made it); null for a first plan. */
  revises: string | null;
  /** Epoch milliseconds. */
  createdAt: number;
  decidedAt: number | null;
  /** Who accepted or rejected it (a tracker login, a git author); null while pending or when stale. */
  decidedBy: string | null;
  /** The human's reason for a rejection, or why it went stale; null otherwise. */
  reason: string | null;
}

/** A plan (`approval.plans`), an investigation (`approval.investigations`), a refinement (`approval.refinements`). */
export const PROPOSAL_KINDS = ['plan', 'investigation', 'refinement'] as const;
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];

export const PROPOSAL_STATUSES = ['pending', 'accepted', 'rejected', 'stale'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** `approval.plans` (and, later, investigations and refinements): apply at once, or wait for a human. */
export type ApprovalMode = 'auto' | 'required';

/** The kind label of the work item a proposal is posted and decided on (WorkItemKind `proposal`). */
export const PROPOSAL_LABEL = 'task:proposal';

/** What a rejected plan's revision run is given: the human's reason and the plan they rejected. */
export interface PlanRevision {
  proposalID: string;
  reason: string;
  previous: PlannerResult;
}

/** The pending plan proposal, if any (there is never more than one; investigations and refinements aside). */
export function findPendingProposal(proposals: Readonly<Record<string, Proposal>>): Proposal | undefined {
  return Object.values(proposals).find(
    (proposal) => proposal.status === 'pending' && proposal.kind === 'plan',
  );
}
