import { handleAutoRefinement } from './handle-auto-refinement.ts';
import { handleBudget } from './handle-budget.ts';
import { handleDependencyResolution } from './handle-dependency-resolution.ts';
import { handleImplementation } from './handle-implementation.ts';
import { handleMergeQueue } from './handle-merge-queue.ts';
import { handleOrphanedWorkItem } from './handle-orphaned-work-item.ts';
import { handlePlanning } from './handle-planning.ts';
import { handleProposals } from './handle-proposals.ts';
import { handleQuestions } from './handle-questions.ts';
import { handleReadiness } from './handle-readiness.ts';
import { handleReview } from './handle-review.ts';
import { handleRevisionFeedback } from './handle-revision-feedback.ts';
import { handleTaskContextMirror } from './handle-task-context-mirror.ts';
import { handleUserDispatch } from './handle-user-dispatch.ts';
import type { NamedHandler } from './handler.ts';

export type { Handler, NamedHandler } from './handler.ts';
export {
  handleAutoRefinement,
  handleBudget,
  handleDependencyResolution,
  handleImplementation,
  handleMergeQueue,
  handleOrphanedWorkItem,
  handlePlanning,
  handleProposals,
  handleQuestions,
  handleReadiness,
  handleReview,
  handleRevisionFeedback,
  handleTaskContextMirror,
  handleUserDispatch,
};

/** Every handler, in the order the loop runs them on each event (their commands run in this order too). */
export const ALL_HANDLERS: readonly NamedHandler[] = [
  { name: 'planning', handle: handlePlanning },
  { name: 'readiness', handle: handleReadiness },
  { name: 'implementation', handle: handleImplementation },
  { name: 'review', handle: handleReview },
  { name: 'dependency-resolution', handle: handleDependencyResolution },
  { name: 'orphaned-work-item', handle: handleOrphanedWorkItem },
  { name: 'user-dispatch', handle: handleUserDispatch },
  { name: 'budget', handle: handleBudget },
  { name: 'questions', handle: handleQuestions },
  { name: 'revision-feedback', handle: handleRevisionFeedback },
  { name: 'proposals', handle: handleProposals },
  { name: 'auto-refinement', handle: handleAutoRefinement },
  { name: 'merge-queue', handle: handleMergeQueue },
  { name: 'task-context-mirror', handle: handleTaskContextMirror },
];
