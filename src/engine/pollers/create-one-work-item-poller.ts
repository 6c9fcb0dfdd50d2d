import type { WorkItemReader } from '../../providers/types.ts';
import { createFailureReporter } from './create-failure-reporter.ts';
import { buildWorkItemChanges } from './create-work-item-poller.ts';
import type { Poller, PollerDeps } from './poller.ts';

/**
 * Reads one work item the store already holds (a webhook named it) and returns its change, as the work
 * item poller would for it: a closed item stays (with its new status), a deleted one is removed, blockers
 * the store has never seen are fetched too. One `getWorkItem` instead of the whole list; the caller keeps
 * unknown ids for the full poll, since only the list applies the provider's filter of what is a work item.
 */
export function createOneWorkItemPoller(deps: PollerDeps<WorkItemReader>, id: string): Poller {
  const failures = createFailureReporter({ source: `work item poller (#${id})`, ...deps });
  return {
    name: `work item #${id}`,
    async poll(getState) {
      try {
        const found = await deps.reader.getWorkItem(id);
        const state = getState();
        const events = buildWorkItemChanges(id, found, state.workItems[id] ?? null);
        for (const blocker of found?.blockedBy ?? []) {
          if (state.workItems[blocker]) continue;
          const fetched = await deps.reader.getWorkItem(blocker);
          if (fetched !== null) events.push(...buildWorkItemChanges(blocker, fetched, null));
        }
        failures.succeeded();
        return events;
      } catch (error) {
        return failures.failed(error);
      }
    },
  };
}
