import type { EngineEvent, WorkItem, WorkItemStatus } from '../../domain/index.ts';
import { buildWorkItemChanged } from './build-change-events.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';

/**
 * Moves the item to `newStatus` in the tracker and returns its workItemChanged; `patch` carries fields the
 * same write implies (a linked revision) so the store sees them with the new status.
 */
export async function transitionWorkItem(
  item: WorkItem,
  newStatus: WorkItemStatus,
  deps: Pick<CommandExecutorDeps, 'workItemWriter'>,
  patch: Partial<WorkItem> = {},
): Promise<EngineEvent> {
  await deps.workItemWriter.transitionStatus(item.id, newStatus);
  return buildWorkItemChanged({ ...item, ...patch, status: newStatus }, item.status);
}
