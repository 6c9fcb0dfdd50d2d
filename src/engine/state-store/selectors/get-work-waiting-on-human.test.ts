import { describe, expect, it } from 'vitest';
import {
  buildPipeline,
  buildPlannerResult,
  buildRevision,
  buildTestState,
  buildWorkItem,
} from '../../../../test/support/shared/builders/index.ts';
import { getWorkWaitingOnHuman } from './get-work-waiting-on-human.ts';

const plannerFailure = {
  attempts: 3,
  lastReason: 'error' as const,
  lastError: 'Not logged in',
  lastFailedAt: 1,
  lastSessionID: 's-9',
};

describe('getWorkWaitingOnHuman', () => {
  it('names parked items and items in review with red checks, in id order', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: '10', title: 'Ten', status: 'blocked' }),
        buildWorkItem({ id: '2', title: 'Two', status: 'needs-refinement' }),
        buildWorkItem({ id: '3', title: 'Three', status: 'review', linkedRevision: 'rev-3' }),
        buildWorkItem({ id: '4', title: 'Four', status: 'review', linkedRevision: 'rev-4' }),
        buildWorkItem({ id: '5', status: 'approved' }),
        buildWorkItem({ id: '6', status: 'pending' }),
      ],
      revisions: [
        buildRevision({ id: 'rev-3', workItemID: '3', pipeline: buildPipeline('failure') }),
        buildRevision({ id: 'rev-4', workItemID: '4', pipeline: buildPipeline('pending') }),
      ],
      checkRounds: { '2': 3 },
    });
    expect(getWorkWaitingOnHuman(state, { maxAttempts: 3 })).toEqual({
      items: [
        { workItemID: '2', title: 'Two', reason: 'needs-refinement', checkRounds: 3 },
        { workItemID: '3', title: 'Three', reason: 'red-checks', checkRounds: 0 },
        { workItemID: '10', title: 'Ten', reason: 'blocked', checkRounds: 0 },
      ],
      plannerOutOfAttempts: null,
    });
  });

  it('names the planner once it failed maxAttempts times, not before', () => {
    const out = buildTestState({ failures: { planner: plannerFailure } });
    expect(getWorkWaitingOnHuman(out, { maxAttempts: 3 }).plannerOutOfAttempts).toEqual(plannerFailure);
    expect(getWorkWaitingOnHuman(out, { maxAttempts: 4 }).plannerOutOfAttempts).toBeNull();
  });

  it('is empty when nothing waits', () => {
    expect(getWorkWaitingOnHuman(buildTestState(), { maxAttempts: 3 })).toEqual({
      items: [],
      plannerOutOfAttempts: null,
    });
  });

  it('names a plan proposal while it waits for a decision, not once decided', () => {
    const proposal = {
      id: '4',
      kind: 'plan' as const,
      status: 'pending' as const,
      sessionID: 's',
      specSHAs: {},
      basePlannedSHAs: {},
      result: buildPlannerResult(),
      revises: null,
      createdAt: 1,
      decidedAt: null,
      decidedBy: null,
      reason: null,
    };
    const item = buildWorkItem({
      id: '4',
      kind: 'proposal',
      status: 'waiting-for-input',
      title: 'Plan proposal',
    });
    const pending = buildTestState({ workItems: [item], proposals: { '4': proposal } });
    expect(getWorkWaitingOnHuman(pending, { maxAttempts: 3 }).items).toMatchObject([
      { workItemID: '4', reason: 'proposal' },
    ]);
    const accepted = buildTestState({
      workItems: [{ ...item, status: 'closed' }],
      proposals: { '4': { ...proposal, status: 'accepted' } },
    });
    expect(getWorkWaitingOnHuman(accepted, { maxAttempts: 3 }).items).toEqual([]);
  });
});
