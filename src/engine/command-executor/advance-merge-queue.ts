import type { AdvanceMergeQueue, EngineEvent, MergeQueueStepped } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildRevisionChanged, buildWorkItemChanged } from './build-change-events.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';

/** Why the queue does not run when the provider cannot update a revision's branch. */
export const CANNOT_QUEUE_REASON =
  'this provider cannot bring a revision onto the default branch (no updateRevisionBranch); the merge queue does not run: merge by hand';

type Deps = Pick<CommandExecutorDeps, 'revisionWriter' | 'requestPoll' | 'clock' | 'logger'>;

/**
 * One step of the merge queue for its head (issue #30 §5), all writes through the provider:
 * 1. `updateRevisionBranch`: the revision is brought onto the default branch's current head — `rebased`
 *    (a new head whose checks start over: the step ends there, reporting the new revision), `conflict`
 *    (nothing written), or `up-to-date`;
 * 2. up to date with green checks on that very head: `mergeRevision` with `fastForwardOnly` and the head's
 *    SHA, so what lands is exactly what passed — never a revision without green checks on its final base.
 *    Up to date with checks still running: nothing to do until they end.
 * The handler asks for a step on every event that may move the queue; a step for the head at a head SHA and
 * checks status already stepped successfully is a no-op (the memory is this executor's), so a burst of
 * events does not update or merge twice. A step whose snapshot no longer shows the head approved there is
 * dropped.
 */
export function createMergeQueueStepper(): (
  command: AdvanceMergeQueue,
  state: EngineState,
  deps: Deps,
) => Promise<EngineEvent[]> {
  const stepped = new Set<string>();
  return async (command, state, deps) => {
    const key = `${command.revisionID}@${command.headSHA}:${command.pipelineStatus ?? 'unknown'}`;
    if (stepped.has(key)) return [];
    const item = state.workItems[command.workItemID];
    const revision = state.revisions[command.revisionID];
    if (
      item?.status !== 'approved' ||
      item.linkedRevision !== command.revisionID ||
      revision?.headSHA !== command.headSHA
    ) {
      return [];
    }
    const { revisionWriter } = deps;
    if (revisionWriter.updateRevisionBranch === undefined || revisionWriter.mergeRevision === undefined) {
      stepped.add(key);
      throw new Error(CANNOT_QUEUE_REASON);
    }
    const stepEvent = (
      fields: Pick<MergeQueueStepped, 'outcome' | 'headSHA'> & Partial<MergeQueueStepped>,
    ): MergeQueueStepped => ({
      type: 'mergeQueueStepped',
      workItemID: item.id,
      revisionID: revision.id,
      previousHeadSHA: revision.headSHA,
      at: deps.clock.now(),
      ...fields,
    });
    const update = await revisionWriter.updateRevisionBranch(revision.id, revision.headSHA);
    stepped.add(key);
    switch (update.outcome) {
      case 'conflict':
        deps.logger.info('merge queue: conflict', { workItemID: item.id, files: update.files.length });
        return [
          stepEvent({
            outcome: 'conflict',
            headSHA: revision.headSHA,
            conflict: {
              revisionID: revision.id,
              headSHA: revision.headSHA,
              baseSHA: update.baseSHA,
              files: update.files,
            },
          }),
        ];
      case 'rebased':
        deps.logger.info('merge queue: rebased', {
          workItemID: item.id,
          head: update.revision.headSHA,
          changedApproved: update.changedApproved,
        });
        return [
          buildRevisionChanged(update.revision, revision),
          stepEvent({
            outcome: 'rebased',
            headSHA: update.revision.headSHA,
            changedApproved: update.changedApproved,
          }),
        ];
      case 'enqueued':
        return [
          buildRevisionChanged(update.revision, revision),
          stepEvent({ outcome: 'enqueued', headSHA: update.revision.headSHA }),
        ];
      case 'up-to-date': {
        const current = update.revision;
        if (current.headSHA !== revision.headSHA || current.pipeline?.status !== 'success') {
          // Checks still running (or the store is behind the tracker): the next revision poll steps again.
          return current.pipeline?.status === revision.pipeline?.status
            ? []
            : [buildRevisionChanged(current, revision)];
        }
        // A refused merge (a dirty checkout of the default branch, a branch moved) is tried again at the
        // next event that steps the queue.
        stepped.delete(key);
        const merged = await revisionWriter.mergeRevision(revision.id, {
          expectedHeadSHA: revision.headSHA,
          fastForwardOnly: true,
        });
        stepped.add(key);
        deps.requestPoll();
        deps.logger.info('merge queue: merged', { workItemID: item.id, head: merged.mergedSHA });
        return [
          buildWorkItemChanged(merged.workItem, item.status),
          {
            type: 'revisionChanged',
            revisionID: revision.id,
            workItemID: revision.workItemID,
            revision: null,
            oldPipelineStatus: revision.pipeline?.status ?? null,
            newPipelineStatus: null,
          },
          stepEvent({ outcome: 'merged', headSHA: merged.mergedSHA }),
        ];
      }
    }
  };
}
