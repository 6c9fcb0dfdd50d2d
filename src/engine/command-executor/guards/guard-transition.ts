import type { TransitionWorkItemStatus } from '../../../domain/index.ts';
import { isAllowedWorkItemTransition } from '../../../domain/index.ts';
import type { EngineState } from '../../state-store/engine-state.ts';
import type { GuardVerdict } from './guard-verdict.ts';

/**
 * A transition must be allowed for its cause by the domain's transition table (`WORK_ITEM_TRANSITIONS`);
 * a transition to the status the item already has passes (it writes nothing).
 */
export function guardTransition(command: TransitionWorkItemStatus, state: EngineState): GuardVerdict {
  const item = state.workItems[command.workItemID];
  if (!item) return { ok: false, kind: 'invalid', reason: `work item #${command.workItemID} is not known` };
  if (
    item.status !== command.newStatus &&
    !isAllowedWorkItemTransition(item.status, command.newStatus, command.cause)
  ) {
    return {
      ok: false,
      kind: 'invalid',
      reason: `#${item.id} cannot move ${item.status} → ${command.newStatus} (${command.cause})`,
    };
  }
  return { ok: true };
}
