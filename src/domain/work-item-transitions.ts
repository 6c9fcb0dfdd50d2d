import type { WorkItemStatus } from './work-item.ts';

/**
 * Why the engine moves a work item. Every automatic transition names its cause, and the pair
 * (from → to) must appear in the table for that cause; `user` and `planner` transitions may go anywhere.
 */
export type TransitionCause =
  | 'readiness'
  | 'dependency-resolved'
  | 'implementor-accepted'
  | 'implementor-result'
  | 'implementor-failed'
  | 'orphaned'
  | 'reviewer-result'
  | 'reviewer-failed'
  | 'checks-failed'
  | 'command-failed'
  | 'retries-exhausted'
  | 'validation-failed'
  | 'no-changes'
  | 'run-cancelled'
  | 'over-budget'
  | 'runtime-unavailable'
  | 'merged'
  | 'merge-queue'
  | 'agent-questions'
  | 'questions-answered'
  | 'questions-timed-out'
  | 'human-review'
  | 'planner'
  | 'mode-result'
  | 'user';

type Pair = readonly [WorkItemStatus, WorkItemStatus];

/** The normative work item transition table (docs/reference-behaviour.md §1.2, with Flotilla's additions marked). */
export const WORK_ITEM_TRANSITIONS: Readonly<Record<TransitionCause, readonly Pair[] | 'any'>> = {
  readiness: [['pending', 'ready']],
  'dependency-resolved': [['pending', 'ready']],
  'implementor-accepted': [['ready', 'in-progress']],
  'implementor-result': [
    ['in-progress', 'review'],
    ['in-progress', 'blocked'],
    ['in-progress', 'needs-refinement'],
  ],
  'implementor-failed': [['in-progress', 'pending']],
  orphaned: [['in-progress', 'pending']],
  // Flotilla: needs-changes sends the item back for rework (pending) until the review-round cap,
  // then to needs-refinement for a human.
  'reviewer-result': [
    ['review', 'approved'],
    ['review', 'needs-refinement'],
    ['review', 'pending'],
  ],
  'reviewer-failed': [['review', 'pending']],
  // Flotilla: red checks send the item back for rework (pending) until the check-round cap, then to
  // needs-refinement for a human.
  'checks-failed': [
    ['review', 'pending'],
    ['review', 'needs-refinement'],
  ],
  // Flotilla: a result the executor could not write for good (e.g. GitHub refused the review): a human looks,
  // told why in a comment, instead of the item staying in review for ever.
  'command-failed': [['review', 'needs-refinement']],
  // Flotilla: bounded failure — after maxAttempts the item is parked as blocked with the last failure.
  'retries-exhausted': [
    ['in-progress', 'blocked'],
    ['pending', 'blocked'],
    ['ready', 'blocked'],
    ['review', 'blocked'],
  ],
  // Flotilla: the implementor's work still failed the validation commands after its last fix round.
  'validation-failed': [['in-progress', 'needs-refinement']],
  // Flotilla: the implementor reported its work complete but changed nothing (issue #28 §6).
  'no-changes': [['in-progress', 'needs-refinement']],
  // Flotilla: a run the user cancelled parks the item as blocked instead of restarting it at once.
  'run-cancelled': [
    ['in-progress', 'blocked'],
    ['review', 'blocked'],
  ],
  // Flotilla: the item's spend (or one run's) reached its budget cap; a human raises the cap or decides.
  'over-budget': [
    ['in-progress', 'blocked'],
    ['pending', 'blocked'],
    ['ready', 'blocked'],
    ['review', 'blocked'],
  ],
  // Flotilla: the item's runtime was refused at dispatch (unknown name, binary or credentials missing).
  'runtime-unavailable': [
    ['in-progress', 'blocked'],
    ['review', 'blocked'],
  ],
  merged: [['approved', 'closed']],
  // Flotilla (issue #30 §5): the merge queue sends an approved item back — to an implementor when it no
  // longer applies to the default branch or its checks fail there, to review when the rebase changed what
  // was approved.
  'merge-queue': [
    ['approved', 'pending'],
    ['approved', 'review'],
  ],
  // Flotilla: an agent stopped with questions; its item waits for a human's answers (the session is kept).
  // An automatic refinement (issue #29) asks from where its item waits: needs-refinement, or a pending
  // `task:refinement` item.
  'agent-questions': [
    ['in-progress', 'waiting-for-input'],
    ['review', 'waiting-for-input'],
    ['needs-refinement', 'waiting-for-input'],
    ['pending', 'waiting-for-input'],
  ],
  // Flotilla: answered; the same session resumes (implementor: in-progress, reviewer: review; an automatic
  // refinement's item waits in needs-refinement while it goes on).
  'questions-answered': [
    ['waiting-for-input', 'in-progress'],
    ['waiting-for-input', 'review'],
    ['waiting-for-input', 'needs-refinement'],
  ],
  // Flotilla: nobody answered within questionTimeout; a human refines the item (a planner's questions item
  // is closed: the spec is what a human refines).
  'questions-timed-out': [
    ['waiting-for-input', 'needs-refinement'],
    ['waiting-for-input', 'closed'],
  ],
  // Flotilla: a human's review on the tracker (GitHub: REQUEST_CHANGES or a mention of the trigger sends the
  // item back for rework; APPROVE approves it, whatever the reviewer agent said). Items an agent holds, or
  // parked for a human, are not sent back: the feedback waits for the next round.
  'human-review': [
    ['review', 'pending'],
    ['approved', 'pending'],
    ['review', 'approved'],
    ['needs-refinement', 'approved'],
    ['blocked', 'approved'],
  ],
  // Issue #29: an investigation or refinement waits for a human (proposal); applied, the investigated bug is
  // closed (its fix items carry the work) and a refined item goes back to pending.
  'mode-result': [
    ['in-progress', 'needs-refinement'],
    ['in-progress', 'closed'],
    ['in-progress', 'pending'],
    ['needs-refinement', 'closed'],
    ['needs-refinement', 'pending'],
  ],
  planner: 'any',
  user: 'any',
};

export function isAllowedWorkItemTransition(
  from: WorkItemStatus,
  to: WorkItemStatus,
  cause: TransitionCause,
): boolean {
  const allowed = WORK_ITEM_TRANSITIONS[cause];
  if (allowed === 'any') return true;
  return allowed.some(([f, t]) => f === from && t === to);
}
