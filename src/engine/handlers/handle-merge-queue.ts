import {
  type EngineCommand,
  type EngineEvent,
  formatMergeConflict,
  type MergeQueueStepped,
  type Revision,
  type RevisionChanged,
} from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildMergeQueue, getActiveAgentRun } from '../state-store/selectors/index.ts';
import type { Handler } from './handler.ts';

/** Events after which the queue's head may have changed or may move on. */
const TRIGGERS: ReadonlySet<EngineEvent['type']> = new Set([
  'workItemChanged',
  'revisionChanged',
  'mergeQueueStepped',
  'userRequestedMerge',
]);

/**
 * The merge queue (issue #30 §5), with config `merge.queue: true`: approved revisions merge one at a time,
 * in `buildMergeQueue` order. The head is stepped (`advanceMergeQueue`: brought onto the default branch, or
 * merged once it sits there with green checks — the executor's step decides which); what a step found
 * sends the item back:
 * - a conflict → a comment with the files and hunks, and `pending`: an implementor reworks it, its prompt
 *   carrying the conflict (state `mergeConflicts`);
 * - a rebase that changed what was approved beyond shifted lines → a comment, and `review` again;
 * - red checks on the rebased head of an approved item → a comment, and `pending` (the implementor's prompt
 *   carries the checks output).
 * Without the config nothing here runs: `flotilla merge` and the dashboard merge by hand.
 */
export const handleMergeQueue: Handler = (event, state, config) => {
  if (config.mergeQueue !== true || !TRIGGERS.has(event.type)) return [];
  const sentBack =
    event.type === 'mergeQueueStepped'
      ? reactToStep(event, state)
      : event.type === 'revisionChanged'
        ? reactToRedChecks(event, state)
        : [];
  if (sentBack.length > 0) return sentBack;
  return stepHead(state);
};

/**
 * Flotilla's own queue: the head only, one at a time (each is brought onto the default branch the one before
 * it moved). The tracker's queue (GitHub's, `trackerMergeQueue.inUse`): every entry that can go — the head
 * and each other entry with green checks and its blockers merged — not already handed to it at its head, in
 * queue order, in the same pass: the tracker builds its merge groups for them together.
 */
function stepHead(state: EngineState): EngineCommand[] {
  const view = buildMergeQueue(state);
  const { head } = view;
  if (head === null) return [];
  const tracker = state.trackerMergeQueue;
  const entries = tracker.inUse
    ? view.entries.filter(
        (entry) =>
          (entry === head || (entry.pipeline === 'success' && entry.waitingFor.length === 0)) &&
          tracker.queued[entry.workItemID] !== entry.headSHA,
      )
    : [head];
  // A reviewer still on it (a human approved mid-review) finishes first.
  return entries
    .filter((entry) => getActiveAgentRun(state, entry.workItemID, 'reviewer') === null)
    .map((entry) => ({
      type: 'advanceMergeQueue',
      workItemID: entry.workItemID,
      revisionID: entry.revisionID,
      headSHA: entry.headSHA,
      pipelineStatus: entry.pipeline,
    }));
}

/**
 * What a step's outcome sends back (a comment and a transition), or nothing; also what
 * `flotilla merge --queue` does after each step, so the foreground queue and the engine's say the same.
 */
export function reactToStep(
  event: MergeQueueStepped,
  state: Pick<EngineState, 'workItems'>,
): EngineCommand[] {
  const item = state.workItems[event.workItemID];
  if (item === undefined || item.status !== 'approved' || item.linkedRevision !== event.revisionID) return [];
  if (event.outcome === 'conflict' && event.conflict !== undefined) {
    return [
      {
        type: 'commentOnWorkItem',
        workItemID: item.id,
        body: `The merge queue could not bring this item onto the default branch: it conflicts. It goes back to an implementor to resolve it.\n\n${formatMergeConflict(event.conflict)}`,
      },
      { type: 'transitionWorkItemStatus', workItemID: item.id, newStatus: 'pending', cause: 'merge-queue' },
    ];
  }
  if (event.outcome === 'rebased' && event.changedApproved === true) {
    return [
      {
        type: 'commentOnWorkItem',
        workItemID: item.id,
        body: `The merge queue rebased revision #${event.revisionID} onto the default branch (${event.previousHeadSHA.slice(0, 12)} → ${event.headSHA.slice(0, 12)}), and that changed the approved change beyond shifted lines, so it is reviewed again.`,
      },
      { type: 'transitionWorkItemStatus', workItemID: item.id, newStatus: 'review', cause: 'merge-queue' },
    ];
  }
  return [];
}

/** Checks newly red on an approved item's revision: what the queue would merge no longer passes. */
function reactToRedChecks(event: RevisionChanged, state: EngineState): EngineCommand[] {
  if (event.newPipelineStatus !== 'failure' || event.oldPipelineStatus === 'failure') return [];
  if (event.workItemID === null) return [];
  const item = state.workItems[event.workItemID];
  const revision = state.revisions[event.revisionID];
  if (item === undefined || item.status !== 'approved' || item.linkedRevision !== event.revisionID) return [];
  return sendBackForRedChecks(item.id, event.revisionID, revision);
}

/** The comment and transition for red checks on the head the queue would merge (engine and CLI). */
export function sendBackForRedChecks(
  workItemID: string,
  revisionID: string,
  revision: Pick<Revision, 'headSHA' | 'pipeline'> | undefined,
): EngineCommand[] {
  const event = { revisionID };
  const item = { id: workItemID };
  const reason = revision?.pipeline?.reason ?? 'checks failed';
  return [
    {
      type: 'commentOnWorkItem',
      workItemID: item.id,
      body: `The checks failed on revision #${event.revisionID} as the merge queue would merge it (${revision?.headSHA.slice(0, 12) ?? 'its head'}, on the default branch): ${reason}. It goes back to an implementor.`,
    },
    { type: 'transitionWorkItemStatus', workItemID: item.id, newStatus: 'pending', cause: 'merge-queue' },
  ];
}
