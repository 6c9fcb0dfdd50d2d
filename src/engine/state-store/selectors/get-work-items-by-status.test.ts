import { describe, expect, it } from 'vitest';
import { buildTestState, buildWorkItem } from '../../../../test/support/shared/builders/index.ts';
import { getWorkItemsByStatus } from './get-work-items-by-status.ts';

describe('getWorkItemsByStatus', () => {
  const state = buildTestState({
    workItems: [
      buildWorkItem({ id: 'a', status: 'ready' }),
      buildWorkItem({ id: 'b', status: 'pending' }),
      buildWorkItem({ id: 'c', status: 'ready', kind: 'refinement' }),
    ],
  });

  it('returns the items in that status, any kind, in store order', () => {
    expect(getWorkItemsByStatus(state, 'ready').map((item) => item.id)).toEqual(['a', 'c']);
    expect(getWorkItemsByStatus(state, 'pending').map((item) => item.id)).toEqual(['b']);
  });

  it('returns an empty list when none matches', () => {
    expect(getWorkItemsByStatus(state, 'closed')).toEqual([]);
  });
});
