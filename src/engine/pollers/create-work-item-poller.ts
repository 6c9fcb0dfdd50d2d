import type { EngineEvent, WorkItem } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { WorkItemReader } from '../../providers/types.ts';
import type { Clock } from '../engine-config.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { createEmissionMemory } from './create-emission-memory.ts';
import { createFailureReporter } from './create-failure-reporter.ts';

export interface Poller {
  /** One poll; concurrent calls share the poll in flight. Never rejects. */
  poll(): Promise<void>;
}

export interface PollerDeps<Reader> {
  reader: Reader;
  getState: () => EngineState;
  emit: (event: EngineEvent) => void;
  logger: Logger;
  clock: Clock;
}

/** Shares one in-flight poll between callers, so polls never overlap. */
export function singleFlight(run: () => Promise<void>): () => Promise<void> {
  let inFlight: Promise<void> | null = null;
  return () => {
    inFlight ??= run().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

/**
 * Diffs the provider's open work items against the store. Items that leave the open list are looked up
 * (closed items stay in the store so dependencies on them resolve); blockers the store has never seen are
 * fetched too, so "closed" is never mistaken for "missing".
 */
export function createWorkItemPoller(deps: PollerDeps<WorkItemReader>): Poller {
  const memory = createEmissionMemory<WorkItem>();
  const failures = createFailureReporter({ source: 'work item poller', ...deps });

  function report(id: string, observed: WorkItem | null, stored: WorkItem | null): void {
    if (!memory.shouldReport(id, observed, stored)) return;
    deps.emit({
      type: 'workItemChanged',
      workItemID: id,
      workItem: observed,
      oldStatus: stored?.status ?? null,
      newStatus: observed?.status ?? null,
    });
  }

  return {
    poll: singleFlight(async () => {
      try {
        const listed = await deps.reader.listWorkItems();
        const state = deps.getState();
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
        const lookedUp = new Map<string, WorkItem | null>();
        for (const id of toLookUp) lookedUp.set(id, await deps.reader.getWorkItem(id));

        const current = deps.getState();
        for (const item of listed) report(item.id, item, current.workItems[item.id] ?? null);
        for (const [id, item] of lookedUp) report(id, item, current.workItems[id] ?? null);
        failures.succeeded();
      } catch (error) {
        failures.failed(error);
      }
    }),
  };
}
