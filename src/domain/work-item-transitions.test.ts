import { describe, expect, it } from 'vitest';
import { WORK_ITEM_STATUSES } from './work-item.ts';
import {
  isAllowedWorkItemTransition,
  type TransitionCause,
  WORK_ITEM_TRANSITIONS,
} from './work-item-transitions.ts';

/** The normative table (docs/reference-behaviour.md §1.2 plus Flotilla's additions), written out independently. */
const EXPECTED: Record<Exclude<TransitionCause, 'planner' | 'user'>, string[]> = {
  readiness: ['pending→ready'],
  'dependency-resolved': ['pending→ready'],
  'implementor-accepted': ['ready→in-progress'],
  'implementor-result': ['in-progress→review', 'in-progress→blocked', 'in-progress→needs-refinement'],
  'implementor-failed': ['in-progress→pending'],
  orphaned: ['in-progress→pending'],
  'reviewer-result': ['review→approved', 'review→needs-refinement', 'review→pending'],
  'reviewer-failed': ['review→pending'],
  'checks-failed': ['review→pending', 'review→needs-refinement'],
  'command-failed': ['review→needs-refinement'],
  'retries-exhausted': ['in-progress→blocked', 'pending→blocked', 'ready→blocked', 'review→blocked'],
  'validation-failed': ['in-progress→needs-refinement'],
  'no-changes': ['in-progress→needs-refinement'],
  'run-cancelled': ['in-progress→blocked', 'review→blocked'],
  'over-budget': ['in-progress→blocked', 'pending→blocked', 'ready→blocked', 'review→blocked'],
  'runtime-unavailable': ['in-progress→blocked', 'review→blocked'],
  merged: ['approved→closed'],
  'merge-queue': ['approved→pending', 'approved→review'],
  'mode-result': [
    'in-progress→needs-refinement',
    'in-progress→closed',
    'in-progress→pending',
    'needs-refinement→closed',
    'needs-refinement→pending',
  ],
  'agent-questions': [
    'in-progress→waiting-for-input',
    'review→waiting-for-input',
    'needs-refinement→waiting-for-input',
    'pending→waiting-for-input',
  ],
  'questions-answered': [
    'waiting-for-input→in-progress',
    'waiting-for-input→review',
    'waiting-for-input→needs-refinement',
  ],
  'questions-timed-out': ['waiting-for-input→needs-refinement', 'waiting-for-input→closed'],
  'human-review': [
    'review→pending',
    'approved→pending',
    'review→approved',
    'needs-refinement→approved',
    'blocked→approved',
  ],
};
const ALL_PAIRS = WORK_ITEM_STATUSES.flatMap((from) => WORK_ITEM_STATUSES.map((to) => [from, to] as const));
const RESTRICTED = Object.entries(EXPECTED).flatMap(([cause, allowed]) =>
  ALL_PAIRS.map(
    ([from, to]) => [cause as TransitionCause, from, to, allowed.includes(`${from}→${to}`)] as const,
  ),
);

describe('WORK_ITEM_TRANSITIONS', () => {
  it('has a rule for exactly the known causes', () => {
    expect(Object.keys(WORK_ITEM_TRANSITIONS).sort()).toEqual(
      [...Object.keys(EXPECTED), 'planner', 'user'].sort(),
    );
  });

  it.each(RESTRICTED)('%s: %s → %s allowed = %s', (cause, from, to, allowed) => {
    expect(isAllowedWorkItemTransition(from, to, cause)).toBe(allowed);
  });

  it.each(['planner', 'user'] as const)('%s may move an item anywhere', (cause) => {
    for (const [from, to] of ALL_PAIRS) expect(isAllowedWorkItemTransition(from, to, cause)).toBe(true);
  });
});
