import { isWorkItemUnblocked } from '../state-store/selectors/index.ts';
import type { Handler } from './handler.ts';

/** workItemChanged to pending: an unblocked task becomes ready. */
export const handleReadiness: Handler = (event, state, config) => {
  if (event.type !== 'workItemChanged' || event.newStatus !== 'pending') return [];
  const workItem = state.workItems[event.workItemID];
  if (workItem === undefined || workItem.status !== 'pending' || workItem.kind !== 'task') return [];
  if (!isWorkItemUnblocked(state, workItem, config.dependencyWaitFor)) return [];
  return [
    { type: 'transitionWorkItemStatus', workItemID: workItem.id, newStatus: 'ready', cause: 'readiness' },
  ];
};
