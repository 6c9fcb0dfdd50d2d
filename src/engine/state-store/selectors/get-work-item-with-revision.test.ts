import { describe, expect, it } from 'vitest';
import {
  buildRevision,
  buildTestState,
  buildWorkItem,
} from '../../../../test/support/shared/builders/index.ts';
import { getWorkItemWithRevision } from './get-work-item-with-revision.ts';

describe('getWorkItemWithRevision', () => {
  it('returns the item and its linked revision', () => {
    const workItem = buildWorkItem({ id: 'wi-1', linkedRevision: 'rev-2' });
    const revision = buildRevision({ id: 'rev-2' });
    const state = buildTestState({
      workItems: [workItem],
      revisions: [buildRevision({ id: 'rev-1' }), revision],
    });
    expect(getWorkItemWithRevision(state, 'wi-1')).toEqual({ workItem, revision });
  });

  it('follows linkedRevision, not revisions that name the item', () => {
    const state = buildTestState({
      workItems: [buildWorkItem({ id: 'wi-1', linkedRevision: null })],
      revisions: [buildRevision({ id: 'rev-1', workItemID: 'wi-1' })],
    });
    expect(getWorkItemWithRevision(state, 'wi-1')).toBeNull();
  });

  it('returns null when the item or the linked revision is not in the store', () => {
    const state = buildTestState({ workItems: [buildWorkItem({ id: 'wi-1', linkedRevision: 'rev-9' })] });
    expect(getWorkItemWithRevision(state, 'wi-1')).toBeNull();
    expect(getWorkItemWithRevision(state, 'wi-2')).toBeNull();
  });
});
