import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../../test/support/engine/create-manual-clock.ts';
import {
  buildPipeline,
  buildRevision,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import type { AdvanceMergeQueue, Revision } from '../../domain/index.ts';
import { silentLogger } from '../../logging/logger.ts';
import type { RevisionWriter, UpdateRevisionBranchResult } from '../../providers/types.ts';
import { CANNOT_QUEUE_REASON, createMergeQueueStepper } from './advance-merge-queue.ts';

const HEAD = 'a'.repeat(40);
const REBASED = 'b'.repeat(40);

function setup(update: (revision: Revision) => UpdateRevisionBranchResult, pipeline: 'pending' | 'success') {
  const revision = buildRevision({
    id: 'r1',
    workItemID: '1',
    headSHA: HEAD,
    pipeline: buildPipeline(pipeline),
  });
  const item = buildWorkItem({ id: '1', status: 'approved', linkedRevision: 'r1' });
  const state = buildTestState({ workItems: [item], revisions: [revision] });
  const calls: string[] = [];
  let polls = 0;
  const revisionWriter = {
    updateRevisionBranch: async (id: string, expected: string) => {
      calls.push(`update ${id} ${expected.slice(0, 1)}`);
      return update(revision);
    },
    mergeRevision: async (id: string, options?: { expectedHeadSHA?: string; fastForwardOnly?: boolean }) => {
      calls.push(`merge ${id} ${options?.expectedHeadSHA?.slice(0, 1)} ${options?.fastForwardOnly}`);
      return {
        workItem: { ...item, status: 'closed' as const },
        strategy: 'fast-forward' as const,
        mergedSHA: HEAD,
      };
    },
  } as unknown as RevisionWriter; // Only the two methods a step calls.
  const deps = {
    revisionWriter,
    requestPoll: () => void polls++,
    clock: createManualClock(7),
    logger: silentLogger,
  };
  const command: AdvanceMergeQueue = {
    type: 'advanceMergeQueue',
    workItemID: '1',
    revisionID: 'r1',
    headSHA: HEAD,
    pipelineStatus: pipeline,
  };
  return { state, deps, command, calls, polls: () => polls };
}

describe('a merge queue step', () => {
  it('merges a head already on the default branch with green checks, fast-forward only, once', async () => {
    const { state, deps, command, calls, polls } = setup(
      (revision) => ({ outcome: 'up-to-date', revision }),
      'success',
    );
    const step = createMergeQueueStepper();
    const events = await step(command, state, deps);
    expect(events.map((event) => event.type)).toEqual([
      'workItemChanged',
      'revisionChanged',
      'mergeQueueStepped',
    ]);
    expect(events[2]).toMatchObject({ outcome: 'merged', workItemID: '1', headSHA: HEAD });
    expect(calls).toEqual(['update r1 a', 'merge r1 a true']);
    expect(polls()).toBe(1);
    // The same step again (a burst of events): nothing.
    expect(await step(command, state, deps)).toEqual([]);
    expect(calls).toHaveLength(2);
  });

  it('reports a rebase as the new revision, and does not merge what has not been checked', async () => {
    const { state, deps, command, calls } = setup(
      (revision) => ({
        outcome: 'rebased',
        revision: { ...revision, headSHA: REBASED, pipeline: buildPipeline('pending') },
        previousHeadSHA: HEAD,
        changedApproved: false,
      }),
      'success',
    );
    const events = await createMergeQueueStepper()(command, state, deps);
    expect(events[0]).toMatchObject({ type: 'revisionChanged', newPipelineStatus: 'pending' });
    expect(events[1]).toMatchObject({ outcome: 'rebased', headSHA: REBASED, changedApproved: false });
    expect(calls).toEqual(['update r1 a']);
  });

  it('waits while the checks of a head on the default branch still run', async () => {
    const { state, deps, command, calls } = setup(
      (revision) => ({ outcome: 'up-to-date', revision }),
      'pending',
    );
    expect(await createMergeQueueStepper()(command, state, deps)).toEqual([]);
    expect(calls).toEqual(['update r1 a']);
  });

  it('reports a conflict with its files, having merged nothing', async () => {
    const files = [{ path: 'src/x.ts', hunks: ['<<<<<<< main\n'] }];
    const { state, deps, command, calls } = setup(
      () => ({ outcome: 'conflict', baseSHA: REBASED, files }),
      'success',
    );
    const events = await createMergeQueueStepper()(command, state, deps);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'mergeQueueStepped',
        outcome: 'conflict',
        conflict: { revisionID: 'r1', headSHA: HEAD, baseSHA: REBASED, files },
      }),
    ]);
    expect(calls).toEqual(['update r1 a']);
  });

  it('drops a step whose head is no longer the approved one, and fails without the capability', async () => {
    const { state, deps, command, calls } = setup(
      (revision) => ({ outcome: 'up-to-date', revision }),
      'success',
    );
    const step = createMergeQueueStepper();
    expect(await step({ ...command, headSHA: REBASED }, state, deps)).toEqual([]);
    expect(calls).toEqual([]);
    await expect(step(command, state, { ...deps, revisionWriter: {} as RevisionWriter })).rejects.toThrow(
      CANNOT_QUEUE_REASON,
    );
  });
});
