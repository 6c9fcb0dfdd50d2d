import { isDependencyTerminal } from '../../domain/index.ts';
import { getWorkItemsDependingOn, isWorkItemUnblocked } from '../state-store/selectors/index.ts';
import type { Handler } from './handler.ts';

/**
 * workItemChanged to approved or closed (closed only, with `dependencyWaitFor: 'merged'`): pending tasks
 * waiting on it that are now unblocked become ready.
 */
export const handleDependencyResolution: Handler = (event, state, config) => {
  if (
    event.type !== 'workItemChanged' ||
    event.newStatus === null ||
    !isDependencyTerminal(event.newStatus, config.dependencyWaitFor)
  ) {
    return [];
  }
  return getWorkItemsDependingOn(state, event.workItemID)
    .filter((dependent) => dependent.status === 'pending' && dependent.kind === 'task')
    .filter((dependent) => isWorkItemUnblocked(state, dependent, config.dependencyWaitFor))
    .map((dependent) => ({
      type: 'transitionWorkItemStatus',
      workItemID: dependent.id,
      newStatus: 'ready',
      cause: 'dependency-resolved',
    }));
};
