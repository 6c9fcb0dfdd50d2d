import { isDeepStrictEqual } from 'node:util';
import type { EngineEvent, WorkItem } from '../../domain/index.ts';
import type { WorkItemReader } from '../../providers/types.ts';
import { createFailureReporter } from './create-failure-reporter.ts';
import type { Poller, PollerDeps } from './poller.ts';

/** The `workItemChanged` an observation makes, if it differs from the stored item (none otherwise). */
export function buildWorkItemChanges(
  id: string,
  observed: WorkItem | null,
  stored: WorkItem | null,
): EngineEvent[] {
  if (isDeepStrictEqual(observed, stored)) return [];
  return [
    {
      type: 'workItemChanged',
      workItemID: id,
      workItem: observed,
      oldStatus: stored?.status ?? null,
      newStatus: observed?.status ?? null,
    },
  ];
}

/**
 * Diffs the provider's open work items against the store. Items that leave the open list are looked up
 * (closed items stay in the store so dependencies on them resolve; deleted ones are removed); blockers the
 * store has never seen are fetched too, so "closed" is never mistaken for "missing".
 */
export function createWorkItemPoller(deps: PollerDeps<WorkItemReader>): Poller {
  const failures = createFailureReporter({ source: 'work item poller', ...deps });
  return {
    name: 'work items',
    async poll(getState) {
      try {
        const listed = await deps.reader.listWorkItems();
        const state = getState();
        const listedIDs = new Set(listed.map((item) => item.id));
        const toLookUp = new Set<string>();
        for (const stored of Object.values(state.workItems)) {
          if (!listedIDs.has(stored.id) && stored.status !== 'closed') toLookUp.add(stored.id);
        }
        for (const item of listed) {
          for (const blocker of item.blockedBy) {
            if (!listedIDs.has(blocker) && !state.workItems[blocker]) toLookUp.add(blocker);
          }
        }
        const events: EngineEvent[] = [];
        for (const item of listed)
          events.push(...buildWorkItemChanges(item.id, item, state.workItems[item.id] ?? null));
        for (const id of toLookUp) {
          const found = await deps.reader.getWorkItem(id);
          // An unknown blocker that does not exist stays unknown (and keeps its dependents blocked).
          if (found === null && !state.workItems[id]) continue;
          events.push(...buildWorkItemChanges(id, found, state.workItems[id] ?? null));
        }
        failures.succeeded();
        return events;
      } catch (error) {
        return failures.failed(error);
      }
    },
  };
}
