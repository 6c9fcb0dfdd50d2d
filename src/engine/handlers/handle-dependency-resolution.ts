import { isDependencyTerminal } from '../../domain/index.ts';
import { getWorkItemsDependingOn, isWorkItemUnblocked } from '../state-store/selectors/index.ts';
import type { Handler } from './handler.ts';

/** workItemChanged to approved or closed: pending tasks waiting on it that are now unblocked become ready. */
export const handleDependencyResolution: Handler = (event, state) => {
  if (
    event.type !== 'workItemChanged' ||
    event.newStatus === null ||
    !isDependencyTerminal(event.newStatus)
  ) {
    return [];
  }
  return getWorkItemsDependingOn(state, event.workItemID)
    .filter((dependent) => dependent.status === 'pending' && dependent.kind === 'task')
    .filter((dependent) => isWorkItemUnblocked(state, dependent))
    .map((dependent) => ({
      type: 'transitionWorkItemStatus',
      workItemID: dependent.id,
      newStatus: 'ready',
      cause: 'dependency-resolved',
    }));
};
