import { getActiveAgentRun } from '../state-store/selectors/index.ts';
import type { Handler } from './handler.ts';

/**
 * workItemChanged to in-progress with no active implementor run (e.g. after a restart) → back to pending, from
 * where readiness dispatches it again.
 */
export const handleOrphanedWorkItem: Handler = (event, state) => {
  if (event.type !== 'workItemChanged' || event.newStatus !== 'in-progress') return [];
  const workItem = state.workItems[event.workItemID];
  if (workItem === undefined || workItem.status !== 'in-progress') return [];
  if (getActiveAgentRun(state, workItem.id, 'implementor') !== null) return [];
  return [
    { type: 'transitionWorkItemStatus', workItemID: workItem.id, newStatus: 'pending', cause: 'orphaned' },
  ];
};
