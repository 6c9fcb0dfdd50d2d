/** The modes a work item asks for by label (`task:investigate`, `task:refine`; issue #29); others are implemented. */
export type WorkItemMode = 'investigate' | 'refine';
export const WORK_ITEM_MODES: readonly WorkItemMode[] = ['investigate', 'refine'];

/** Lifecycle status of a work item (docs/reference-behaviour.md §1.1). */
export const WORK_ITEM_STATUSES = [
  'pending',
  'ready',
  'in-progress',
  'review',
  'approved',
  'needs-refinement',
  // Flotilla: an agent stopped with questions; its session and worktree wait for a human's answers.
  'waiting-for-input',
  'blocked',
  'closed',
] as const;
export type WorkItemStatus = (typeof WORK_ITEM_STATUSES)[number];

export const WORK_ITEM_PRIORITIES = ['high', 'medium', 'low'] as const;
export type WorkItemPriority = (typeof WORK_ITEM_PRIORITIES)[number];

export const WORK_ITEM_COMPLEXITIES = ['trivial', 'low', 'medium', 'high'] as const;
export type WorkItemComplexity = (typeof WORK_ITEM_COMPLEXITIES)[number];

/**
 * `task` items are implemented by agents; `refinement` items are the planner's questions about a spec.
 * Refinement items are never dispatched to an implementor and stay visible to the planner. `questions` items
 * (`task:questions`) carry a planner's questions while its session waits for a human's answers: the engine
 * opens and closes them, never dispatches them, and leaves them out of the planner's context. `proposal` items
 * (`task:proposal`) carry a plan waiting for a human's `/accept` or `/reject` (`approval.plans: required`),
 * likewise opened, closed and never dispatched by the engine.
 */
export type WorkItemKind = 'task' | 'refinement' | 'questions' | 'proposal';

export interface WorkItem {
  id: string;
  title: string;
  status: WorkItemStatus;
  kind: WorkItemKind;
  priority: WorkItemPriority | null;
  complexity: WorkItemComplexity | null;
  /** Ids of the items that must be approved or closed before this one becomes ready. */
  blockedBy: string[];
  /** ISO timestamp of creation; used to order equal-priority dispatches oldest first. */
  createdAt: string;
  /** The open revision implementing this item, if any. */
  linkedRevision: string | null;
  /**
   * The runtime its implementor and reviewer run on, from a `runtime:<name>` label (over the configured
   * `runtimes.<role>`); absent without such a label. The engine checks the name at dispatch.
   */
  runtime?: string;
  /** `task:investigate` / `task:refine` (issue #29): its run is an investigation or a refinement. */
  mode?: WorkItemMode;
  /** A `complexity:*` value outside WORK_ITEM_COMPLEXITIES (`simple`…), for `models.implementor`'s map. */
  complexityLabel?: string;
  /**
   * The version of its description (`hashText` in src/shared/hash-text.ts of the body without provider
   * metadata), so the engine sees a human's edit: an automatic refinement runs once per version (issue #29).
   * Absent when the provider does not report it.
   */
  bodyHash?: string;
}

/** A new work item's fields, as a provider creates it (its id, status and dates are the provider's). */
export interface CreateWorkItemInput {
  title: string;
  body: string;
  labels: string[];
  blockedBy: string[];
}

/** Statuses that satisfy a dependency: a blocker in one of these no longer blocks. */
export const DEPENDENCY_TERMINAL_STATUSES: readonly WorkItemStatus[] = ['approved', 'closed'];

/**
 * Config `dependencies.waitFor` (issue #30): `approved` (default) — a dependent item is ready once its
 * blockers are approved, and builds on their approved revisions; `merged` — only once they are closed.
 */
export type DependencyWaitFor = 'approved' | 'merged';

export function isDependencyTerminal(
  status: WorkItemStatus,
  waitFor: DependencyWaitFor = 'approved',
): boolean {
  return waitFor === 'merged' ? status === 'closed' : DEPENDENCY_TERMINAL_STATUSES.includes(status);
}
