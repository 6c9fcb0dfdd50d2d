import { describe, expect, it } from 'vitest';
import {
  buildHandlerConfig,
  buildSampleEvents,
  buildSampleState,
  SAMPLE_IDS,
} from '../../../test/support/engine/index.ts';
import { applyStateUpdate } from '../state-store/apply-state-update.ts';
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
import { ALL_HANDLERS } from './index.ts';

describe('ALL_HANDLERS', () => {
  it('lists the handlers once each, named, in the documented order', () => {
    expect(ALL_HANDLERS.map(({ name, handle }) => [name, handle])).toEqual([
      ['planning', handlePlanning],
      ['readiness', handleReadiness],
      ['implementation', handleImplementation],
      ['review', handleReview],
      ['dependency-resolution', handleDependencyResolution],
      ['orphaned-work-item', handleOrphanedWorkItem],
      ['user-dispatch', handleUserDispatch],
      ['budget', handleBudget],
      ['questions', handleQuestions],
      ['revision-feedback', handleRevisionFeedback],
      ['proposals', handleProposals],
      ['auto-refinement', handleAutoRefinement],
      ['merge-queue', handleMergeQueue],
      ['task-context-mirror', handleTaskContextMirror],
    ]);
  });

  it('together turn one event into the commands of every handler that reacts, in handler order', () => {
    // A reviewer failing for good on the sample state: only the review handler reacts.
    const base = buildSampleState();
    const state = {
      ...base,
      failures: {
        ...base.failures,
        [`reviewer:${SAMPLE_IDS.reviewingItem}`]: {
          attempts: 2,
          lastReason: 'error' as const,
          lastError: 'x',
          lastFailedAt: 1,
          lastSessionID: 'r-0',
        },
      },
    };
    const event = buildSampleEvents().reviewerFailed;
    const snapshot = applyStateUpdate(state, event).state;
    const commands = ALL_HANDLERS.flatMap(({ handle }) => handle(event, snapshot, buildHandlerConfig()));
    expect(commands.map((command) => command.type)).toEqual([
      'transitionWorkItemStatus',
      'commentOnWorkItem',
    ]);

    const userEvent = buildSampleEvents().userTransitionedStatus;
    const afterUser = applyStateUpdate(base, userEvent).state;
    expect(ALL_HANDLERS.flatMap(({ handle }) => handle(userEvent, afterUser, buildHandlerConfig()))).toEqual([
      {
        type: 'transitionWorkItemStatus',
        workItemID: SAMPLE_IDS.blockedItem,
        newStatus: 'pending',
        cause: 'user',
      },
    ]);
  });
});
