import { describe, expect, it } from 'vitest';
import {
  buildHandlerConfig,
  buildSampleEventList,
  runHandlerAfterUpdate,
} from '../../../test/support/engine/index.ts';
import {
  buildPipeline,
  buildReviewerRun,
  buildRevision,
  buildRevisionChanged,
  buildTestState,
  buildWorkItem,
} from '../../../test/support/shared/builders/index.ts';
import type { MergeQueueStepped } from '../../domain/index.ts';
import { handleMergeQueue } from './handle-merge-queue.ts';

const HEAD = 'a'.repeat(40);
const ON = buildHandlerConfig({ mergeQueue: true });

function queueState(pipeline: 'pending' | 'success' | 'failure' = 'success') {
  return buildTestState({
    workItems: [
      buildWorkItem({ id: '1', status: 'approved', linkedRevision: 'r1' }),
      buildWorkItem({ id: '2', status: 'approved', linkedRevision: 'r2', blockedBy: ['1'] }),
    ],
    revisions: [
      buildRevision({ id: 'r1', workItemID: '1', headSHA: HEAD, pipeline: buildPipeline(pipeline) }),
      buildRevision({ id: 'r2', workItemID: '2', headSHA: 'b'.repeat(40) }),
    ],
  });
}
const step = (fields: Partial<MergeQueueStepped>): MergeQueueStepped => ({
  type: 'mergeQueueStepped',
  workItemID: '1',
  revisionID: 'r1',
  outcome: 'up-to-date',
  previousHeadSHA: HEAD,
  headSHA: HEAD,
  at: 1,
  ...fields,
});
const advanceHead = (pipelineStatus: 'pending' | 'success' | null = 'success') => ({
  type: 'advanceMergeQueue',
  workItemID: '1',
  revisionID: 'r1',
  headSHA: HEAD,
  pipelineStatus,
});

describe('handleMergeQueue', () => {
  it('does nothing without merge.queue, whatever the event', () => {
    for (const event of buildSampleEventList()) {
      expect(runHandlerAfterUpdate(handleMergeQueue, event, queueState())).toEqual([]);
    }
  });

  it('steps the head of the queue (not the item waiting for it) when an item or revision changes', () => {
    const event = buildRevisionChanged(queueState().revisions.r1!, 'pending');
    expect(runHandlerAfterUpdate(handleMergeQueue, event, queueState(), ON)).toEqual([advanceHead()]);
  });

  it('steps a head whose checks still run too (it may need a rebase first)', () => {
    const event = step({ outcome: 'up-to-date' });
    expect(runHandlerAfterUpdate(handleMergeQueue, event, queueState('pending'), ON)).toEqual([
      advanceHead('pending'),
    ]);
  });

  it('waits while a reviewer still runs on the head', () => {
    const state = {
      ...queueState(),
      agentRuns: { s1: buildReviewerRun({ sessionID: 's1', workItemID: '1', revisionID: 'r1' }) },
    };
    expect(runHandlerAfterUpdate(handleMergeQueue, step({}), state, ON)).toEqual([]);
  });

  it('sends a conflict back to an implementor with the files and hunks in a comment', () => {
    const conflict = {
      revisionID: 'r1',
      headSHA: HEAD,
      baseSHA: 'c'.repeat(40),
      files: [{ path: 'src/shared.js', hunks: ['<<<<<<< main\nx\n=======\ny\n>>>>>>> flotilla/1\n'] }],
    };
    const commands = runHandlerAfterUpdate(
      handleMergeQueue,
      step({ outcome: 'conflict', conflict }),
      queueState(),
      ON,
    );
    expect(commands).toHaveLength(2);
    expect(commands[0]).toMatchObject({ type: 'commentOnWorkItem', workItemID: '1' });
    const body = (commands[0] as { body: string }).body;
    expect(body).toContain('- `src/shared.js`');
    expect(body).toContain('<<<<<<< main\nx\n=======\ny\n>>>>>>> flotilla/1');
    expect(commands[1]).toEqual({
      type: 'transitionWorkItemStatus',
      workItemID: '1',
      newStatus: 'pending',
      cause: 'merge-queue',
    });
  });

  it('sends a rebase that changed the approved change back to review; a shifted one steps on', () => {
    const changed = runHandlerAfterUpdate(
      handleMergeQueue,
      step({ outcome: 'rebased', changedApproved: true }),
      queueState('pending'),
      ON,
    );
    expect(changed.map((command) => command.type)).toEqual(['commentOnWorkItem', 'transitionWorkItemStatus']);
    expect(changed[1]).toMatchObject({ newStatus: 'review', cause: 'merge-queue' });
    const shifted = runHandlerAfterUpdate(
      handleMergeQueue,
      step({ outcome: 'rebased', changedApproved: false }),
      queueState('pending'),
      ON,
    );
    expect(shifted).toEqual([advanceHead('pending')]);
  });

  it('sends an approved item whose checks turned red back to an implementor, once', () => {
    const red = buildRevisionChanged(queueState('failure').revisions.r1!, 'pending');
    const commands = runHandlerAfterUpdate(handleMergeQueue, red, queueState('failure'), ON);
    expect(commands.map((command) => command.type)).toEqual([
      'commentOnWorkItem',
      'transitionWorkItemStatus',
    ]);
    expect(commands[1]).toMatchObject({ workItemID: '1', newStatus: 'pending', cause: 'merge-queue' });
    const again = { ...red, oldPipelineStatus: 'failure' as const };
    // Still red: no second send-back; the item waiting behind it is not the head (its blocker is not merged).
    expect(runHandlerAfterUpdate(handleMergeQueue, again, queueState('failure'), ON)).toEqual([]);
  });
});
