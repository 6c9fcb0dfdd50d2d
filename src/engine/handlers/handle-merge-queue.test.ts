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

  describe("with the tracker's own merge queue (GitHub's)", () => {
    /** Three approved items with green checks; #3 waits for #1 to merge. */
    function threeGreen() {
      const sha = (n: number) => String(n).repeat(40);
      return buildTestState({
        workItems: [
          buildWorkItem({ id: '1', status: 'approved', linkedRevision: 'r1' }),
          buildWorkItem({ id: '2', status: 'approved', linkedRevision: 'r2' }),
          buildWorkItem({ id: '3', status: 'approved', linkedRevision: 'r3', blockedBy: ['1'] }),
          buildWorkItem({ id: '4', status: 'approved', linkedRevision: 'r4' }),
        ],
        revisions: [1, 2, 3, 4].map((n) =>
          buildRevision({
            id: `r${n}`,
            workItemID: String(n),
            headSHA: sha(n),
            // #4's checks still run: it goes once they are green.
            pipeline: buildPipeline(n === 4 ? 'pending' : 'success'),
          }),
        ),
      });
    }
    const advance = (n: number, pipelineStatus: 'pending' | 'success' = 'success') => ({
      type: 'advanceMergeQueue',
      workItemID: String(n),
      revisionID: `r${n}`,
      headSHA: String(n).repeat(40),
      pipelineStatus,
    });

    it('hands every green approved item to it in the pass after the head was enqueued, not one at a time', () => {
      // Before any step said so, the queue is Flotilla's: the head only.
      const first = buildRevisionChanged(threeGreen().revisions.r1!, 'pending');
      expect(runHandlerAfterUpdate(handleMergeQueue, first, threeGreen(), ON)).toEqual([advance(1)]);
      // The head went to the tracker's queue: the other green ones follow at once (#3 waits for #1 to
      // merge, #4 for its checks), the head is not stepped again.
      const enqueued = step({
        outcome: 'enqueued',
        headSHA: '1'.repeat(40),
        previousHeadSHA: '1'.repeat(40),
      });
      const state = {
        ...threeGreen(),
        revisions: {
          ...threeGreen().revisions,
          r1: { ...threeGreen().revisions.r1!, pipeline: buildPipeline('pending') },
        },
      };
      expect(runHandlerAfterUpdate(handleMergeQueue, enqueued, state, ON)).toEqual([advance(2)]);
    });

    it('steps no item already handed to it at its head; a new head goes again', () => {
      const state = {
        ...threeGreen(),
        trackerMergeQueue: { inUse: true, queued: { '1': '1'.repeat(40), '2': '2'.repeat(40) } },
      };
      const green4 = buildRevisionChanged(
        { ...threeGreen().revisions.r4!, pipeline: buildPipeline('success') },
        'pending',
      );
      expect(runHandlerAfterUpdate(handleMergeQueue, green4, state, ON)).toEqual([advance(4)]);
      // #2 pushed to (GitHub takes it out of its queue): its new head is handed over again once green.
      const pushed = buildRevisionChanged(
        { ...threeGreen().revisions.r2!, headSHA: 'e'.repeat(40), pipeline: buildPipeline('success') },
        'success',
      );
      expect(runHandlerAfterUpdate(handleMergeQueue, pushed, state, ON)).toEqual([
        { ...advance(2), headSHA: 'e'.repeat(40) },
      ]);
    });

    it('goes back to one at a time once a step rebased or merged (the repository left the queue)', () => {
      const state = { ...threeGreen(), trackerMergeQueue: { inUse: true, queued: {} } };
      expect(runHandlerAfterUpdate(handleMergeQueue, step({ outcome: 'rebased' }), state, ON)).toEqual([
        advance(1),
      ]);
    });
  });
});
