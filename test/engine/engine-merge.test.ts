import { afterEach, describe, expect, it } from 'vitest';
import { buildAddFilePatch } from '../../src/runtimes/scripted/build-scripted-results.ts';
import { createEngineHarness, type EngineHarness } from '../support/engine-harness.ts';

let harness: EngineHarness | null = null;
afterEach(async () => {
  await harness?.engine.stop();
  harness = null;
});

/**
 * An engine over item "1" in `status` with its open revision "2". Its checks stay pending, so no reviewer
 * starts for an item in review: only the merge is under test, and no agent ever runs.
 */
async function startWithRevision(status: 'approved' | 'review'): Promise<EngineHarness> {
  const h = createEngineHarness();
  harness = h;
  h.provider.control.addWorkItem({ title: 'Add a feature', status });
  h.provider.control.addRevision({
    branchName: 'flotilla/1',
    workItemID: '1',
    patch: buildAddFilePatch('src/feature.ts', 'export const f = 1;\n'),
  });
  await h.engine.start();
  await h.settle();
  return h;
}

describe('engine: a user merge', () => {
  it('merges the approved item: the revision is merged, the item closed, and the store shows both', async () => {
    const h = await startWithRevision('approved');
    const branchBefore = await h.provider.specReader.getDefaultBranchSHA();
    expect(h.engine.getState().revisions['2']).toBeDefined();

    h.engine.enqueue({ type: 'userRequestedMerge', workItemID: '1' });
    await h.settle();

    expect(h.provider.control.calls('mergeRevision').map((call) => call.args)).toEqual([['2']]);
    expect(h.provider.control.revisionRecord('2').state).toBe('merged');
    expect((await h.provider.workItemReader.getWorkItem('1'))?.status).toBe('closed');
    expect(await h.provider.specReader.getDefaultBranchSHA()).not.toBe(branchBefore);
    const state = h.engine.getState();
    expect(state.workItems['1']?.status).toBe('closed');
    expect(state.revisions['2']).toBeUndefined();
    expect(state.errors).toEqual([]);
    // The executor's own events made it visible, before any poll.
    const afterMerge = h.events.slice(h.events.findIndex((event) => event.type === 'userRequestedMerge'));
    expect(afterMerge.slice(0, 3).map((event) => event.type)).toEqual([
      'userRequestedMerge',
      'workItemChanged',
      'revisionChanged',
    ]);
  });

  it('does not merge an item that is not approved', async () => {
    const h = await startWithRevision('review');

    h.engine.enqueue({ type: 'userRequestedMerge', workItemID: '1' });
    await h.settle();

    expect(h.provider.control.calls('mergeRevision')).toEqual([]);
    expect(h.provider.control.revisionRecord('2').state).toBe('open');
    const state = h.engine.getState();
    expect(state.workItems['1']?.status).toBe('review');
    expect(state.revisions['2']).toBeDefined();
  });
});
