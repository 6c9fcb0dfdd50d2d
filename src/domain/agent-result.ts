import type { AgentReview } from './review.ts';
import type { WorkItemComplexity } from './work-item.ts';

export type AgentRole = 'planner' | 'implementor' | 'reviewer';
export const AGENT_ROLES: readonly AgentRole[] = ['planner', 'implementor', 'reviewer'];

export interface PlannedWorkItem {
  /** Id local to this result, so other creates can name it in `blockedBy`. */
  tempID: string;
  title: string;
  body: string;
  labels: string[];
  /** tempIDs from this result, or ids of existing work items. */
  blockedBy: string[];
}

export interface PlannedWorkItemUpdate {
  workItemID: string;
  /** Null means no change. */
  body: string | null;
  /** Null means no change. */
  labels: string[] | null;
}

export interface PlannerResult {
  role: 'planner';
  create: PlannedWorkItem[];
  close: string[];
  update: PlannedWorkItemUpdate[];
  /**
   * What the plan does and why, for the items' task context (`plan_summary`, issue #28 §1); null or absent
   * when the planner gave none (the entry then lists what was created).
   */
  summary?: string | null | undefined;
}

export type ImplementorOutcome = 'completed' | 'blocked' | 'validation-failure';

export interface ImplementorResult {
  role: 'implementor';
  outcome: ImplementorOutcome;
  summary: string;
  /** Added by the runtime adapter: every change against the base commit; null unless completed. */
  patch: string | null;
  /**
   * Added with the patch: the commit it is against (its worktree's start). A revision is committed on it
   * when the default branch does not contain it (stacked work: the blockers' revisions), else on the tip.
   */
  base?: string;
  /**
   * An investigation's or refinement's report (issue #29 modes): the run wrote no file (patch null, outcome
   * `completed`); the report is proposed or applied instead of a revision.
   */
  report?: ModeReport;
}

export interface ReviewerResult {
  role: 'reviewer';
  review: AgentReview;
}

export type AgentResult = PlannerResult | ImplementorResult | ReviewerResult;

/** An investigation's findings: the cause, what shows it, where, and the items that would fix it. */
export interface InvestigationReport {
  mode: 'investigate';
  summary: string;
  rootCause: string;
  evidence: string[];
  files: string[];
  /** Proposed fix items; `blockedBy` names tempIDs of this list (or existing items). */
  fixes: PlannedWorkItem[];
}

/** A refinement: the item's new, precise body and labels. */
export interface RefinementReport {
  mode: 'refine';
  summary: string;
  /** A clearer title, or null to keep it. */
  title: string | null;
  body: string;
  acceptanceCriteria: string[];
  files: string[];
  size: WorkItemComplexity;
  /** The item's labels afterwards (its `task:refine` label is dropped when the refinement is applied). */
  labels: string[];
}

export type ModeReport = InvestigationReport | RefinementReport;
