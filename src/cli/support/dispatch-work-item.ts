import { isDependencyTerminal, type WorkItemStatus } from '../../domain/index.ts';
import type { SqliteTracker } from '../../storage/index.ts';
import { CliError } from './cli-error.ts';
import { refuseUndispatchableKind } from './refuse-undispatchable-kind.ts';
import { requireWorkItem } from './require-work-item.ts';

/** The statuses a human may send to an implementor; the rest are busy, done, or under review. */
const DISPATCHABLE: readonly WorkItemStatus[] = ['pending', 'blocked', 'needs-refinement'];

/** What a dispatch did: `from` null when the item was already `ready` (a no-op). */
export interface DispatchOutcome {
  from: WorkItemStatus | null;
  openBlockers: string[];
}

/**
 * A human asking for an implementor on the local tracker: moves the item to `ready`; a running engine picks it
 * up through its poller. Shared by `flotilla work dispatch` and the HTTP API (src/api/). Refusals are
 * CliErrors with exit 1 (the tracker's state does not allow it).
 */
export function dispatchWorkItem(tracker: SqliteTracker, id: string): DispatchOutcome {
  const item = requireWorkItem(tracker, id);
  refuseUndispatchableKind(item);
  if (item.status === 'ready') return { from: null, openBlockers: [] };
  if (!DISPATCHABLE.includes(item.status)) {
    throw new CliError(
      `#${id} is ${item.status}; only pending, blocked or needs-refinement items can be dispatched` +
        (item.status === 'closed' ? ` (reopen it first: \`flotilla work reopen ${id}\`)` : ''),
      { exitCode: 1 },
    );
  }
  const openBlockers = item.blockedBy.filter((blockerID) => {
    const blocker = tracker.workItems.getWorkItem(blockerID);
    return blocker !== null && !isDependencyTerminal(blocker.status);
  });
  tracker.workItems.transitionStatus(id, 'ready');
  return { from: item.status, openBlockers };
}
