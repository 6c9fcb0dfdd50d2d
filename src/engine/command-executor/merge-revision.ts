import type { EngineEvent, MergeRevision } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildWorkItemChanged } from './build-change-events.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';
import { CANNOT_MERGE_REASON } from './guards/guard-merge.ts';

/**
 * Merges an approved item's open revision through the provider (which integrates it into the default
 * branch, marks it merged and closes the item), then asks for a poll: the default branch moved, so specs
 * and other items may have changed too. A refusal (e.g. a dirty checkout) throws → commandFailed.
 * `guardMerge` has checked the item and revision against the snapshot.
 */
export async function mergeRevision(
  command: MergeRevision,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'revisionWriter' | 'requestPoll'>,
): Promise<EngineEvent[]> {
  const { revisionWriter } = deps;
  if (revisionWriter.mergeRevision === undefined) throw new Error(CANNOT_MERGE_REASON);
  const item = state.workItems[command.workItemID]!;
  const revision = state.revisions[command.revisionID]!;
  const result = await revisionWriter.mergeRevision(command.revisionID);
  deps.requestPoll();
  // What the pollers would report next, reported now: the item closed, the revision gone from the open ones.
  return [
    buildWorkItemChanged(result.workItem, item.status),
    {
      type: 'revisionChanged',
      revisionID: revision.id,
      workItemID: revision.workItemID,
      revision: null,
      oldPipelineStatus: revision.pipeline?.status ?? null,
      newPipelineStatus: null,
    },
  ];
}
