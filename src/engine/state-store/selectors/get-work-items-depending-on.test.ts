import { describe, expect, it } from 'vitest';
import { buildTestState, buildWorkItem } from '../../../../test/support/shared/builders/index.ts';
import { getWorkItemsDependingOn } from './get-work-items-depending-on.ts';

describe('getWorkItemsDependingOn', () => {
  const state = buildTestState({
    workItems: [
      buildWorkItem({ id: 'blocker' }),
      buildWorkItem({ id: 'one', blockedBy: ['blocker'] }),
      buildWorkItem({ id: 'two', blockedBy: ['other', 'blocker'], status: 'closed' }),
      buildWorkItem({ id: 'three', blockedBy: ['other'] }),
    ],
  });

  it('returns every item naming the id in blockedBy, whatever its status', () => {
    expect(getWorkItemsDependingOn(state, 'blocker').map((item) => item.id)).toEqual(['one', 'two']);
  });

  it('returns nothing for an id no item waits on', () => {
    expect(getWorkItemsDependingOn(state, 'one')).toEqual([]);
  });
});
