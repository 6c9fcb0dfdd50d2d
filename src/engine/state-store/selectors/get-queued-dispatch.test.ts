import { describe, expect, it } from 'vitest';
import { buildTestState } from '../../../../test/support/shared/builders/index.ts';
import { getQueuedDispatch } from './get-queued-dispatch.ts';

describe('getQueuedDispatch', () => {
  const entry = {
    key: 'reviewer:wi-1',
    command: { type: 'requestReviewerRun', workItemID: 'wi-1', revisionID: 'rev-1' },
    reason: 'capacity',
    notBefore: null,
    priority: 2,
    queuedAt: 1,
  } as const;
  const state = buildTestState({ dispatchQueue: [entry] });

  it('finds the entry waiting for the same role and item, whatever the other fields', () => {
    expect(
      getQueuedDispatch(state, { type: 'requestReviewerRun', workItemID: 'wi-1', revisionID: 'rev-2' }),
    ).toBe(entry);
  });

  it('returns null for another role or item', () => {
    expect(getQueuedDispatch(state, { type: 'requestImplementorRun', workItemID: 'wi-1' })).toBeNull();
    expect(
      getQueuedDispatch(state, { type: 'requestReviewerRun', workItemID: 'wi-2', revisionID: 'rev-1' }),
    ).toBeNull();
    expect(getQueuedDispatch(state, { type: 'requestPlannerRun', specPaths: [], specSHAs: {} })).toBeNull();
  });
});
