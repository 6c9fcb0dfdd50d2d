import { describe, expect, it } from 'vitest';
import { buildTestState, buildWorkItem } from '../../../../test/support/shared/builders/index.ts';
import { WORK_ITEM_STATUSES } from '../../../domain/index.ts';
import { isWorkItemUnblocked } from './is-work-item-unblocked.ts';

describe('isWorkItemUnblocked', () => {
  it('is true without blockers', () => {
    expect(isWorkItemUnblocked(buildTestState(), buildWorkItem({ blockedBy: [] }))).toBe(true);
  });

  it.each(WORK_ITEM_STATUSES)('a blocker in %s resolves only if approved or closed', (status) => {
    const state = buildTestState({ workItems: [buildWorkItem({ id: 'b', status })] });
    expect(isWorkItemUnblocked(state, buildWorkItem({ blockedBy: ['b'] }))).toBe(
      status === 'approved' || status === 'closed',
    );
  });

  it('treats a blocker missing from the store as unresolved', () => {
    const state = buildTestState({ workItems: [buildWorkItem({ id: 'b1', status: 'closed' })] });
    expect(isWorkItemUnblocked(state, buildWorkItem({ blockedBy: ['b1', 'b2'] }))).toBe(false);
  });

  it('needs every blocker resolved', () => {
    const state = buildTestState({
      workItems: [
        buildWorkItem({ id: 'b1', status: 'closed' }),
        buildWorkItem({ id: 'b2', status: 'approved' }),
      ],
    });
    expect(isWorkItemUnblocked(state, buildWorkItem({ blockedBy: ['b1', 'b2'] }))).toBe(true);
    const withOpen = buildTestState({
      workItems: [
        buildWorkItem({ id: 'b1', status: 'closed' }),
        buildWorkItem({ id: 'b2', status: 'review' }),
      ],
    });
    expect(isWorkItemUnblocked(withOpen, buildWorkItem({ blockedBy: ['b1', 'b2'] }))).toBe(false);
  });
});
