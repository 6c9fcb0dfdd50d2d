import { isDependencyTerminal, type WorkItem, type WorkItemStatus } from './work-item.ts';

/**
 * The blockers an item still waits for: those neither approved nor closed (the engine's dependency rule,
 * `isDependencyTerminal`). A blocker the caller cannot see (`undefined`: deleted, or a closed issue outside an
 * open-items list) waits for nothing. Shown to people as "waiting for", never beside the `blocked` status.
 */
export function listOpenBlockers(
  item: Pick<WorkItem, 'blockedBy'>,
  statusOf: (id: string) => WorkItemStatus | undefined,
): { id: string; status: WorkItemStatus }[] {
  return item.blockedBy.flatMap((id) => {
    const status = statusOf(id);
    return status === undefined || isDependencyTerminal(status) ? [] : [{ id, status }];
  });
}
