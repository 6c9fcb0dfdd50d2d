import type { MergeRevision } from '../../../domain/index.ts';
import type { EngineState } from '../../state-store/engine-state.ts';
import type { CommandExecutorDeps } from '../command-executor-deps.ts';
import type { GuardVerdict } from './guard-verdict.ts';

/** Why a mergeRevision command is refused when the provider has no merge capability. */
export const CANNOT_MERGE_REASON = 'this provider cannot merge; merge the revision in the tracker';

/** Only the open revision of an approved item is merged, and only by a provider that can merge. */
export function guardMerge(
  command: MergeRevision,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'revisionWriter'>,
): GuardVerdict {
  if (deps.revisionWriter.mergeRevision === undefined) {
    return { ok: false, kind: 'invalid', reason: CANNOT_MERGE_REASON };
  }
  const item = state.workItems[command.workItemID];
  if (!item) return { ok: false, kind: 'invalid', reason: `work item #${command.workItemID} is not known` };
  if (item.status !== 'approved') {
    return { ok: false, kind: 'invalid', reason: `#${item.id} is ${item.status}, not approved` };
  }
  if (item.linkedRevision !== command.revisionID || !state.revisions[command.revisionID]) {
    return {
      ok: false,
      kind: 'invalid',
      reason: `revision ${command.revisionID} is not the open revision of #${item.id}`,
    };
  }
  return { ok: true };
}
