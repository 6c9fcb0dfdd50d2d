import type { Revision } from '../../domain/index.ts';
import type { RevisionReader } from '../../providers/types.ts';
import { createEmissionMemory } from './create-emission-memory.ts';
import { createFailureReporter } from './create-failure-reporter.ts';
import { type Poller, type PollerDeps, singleFlight } from './create-work-item-poller.ts';

/**
 * Diffs open revisions against the store. An unknown pipeline (null) keeps the last known one — a failed
 * CI fetch must neither remove the revision nor be reported as a change on every poll.
 */
export function createRevisionPoller(deps: PollerDeps<RevisionReader>): Poller {
  const memory = createEmissionMemory<Revision>();
  const failures = createFailureReporter({ source: 'revision poller', ...deps });

  function report(id: string, observed: Revision | null, stored: Revision | null): void {
    const effective =
      observed && observed.pipeline === null && stored
        ? { ...observed, pipeline: stored.pipeline }
        : observed;
    if (!memory.shouldReport(id, effective, stored)) return;
    deps.emit({
      type: 'revisionChanged',
      revisionID: id,
      workItemID: effective?.workItemID ?? stored?.workItemID ?? null,
      revision: effective,
      oldPipelineStatus: stored?.pipeline?.status ?? null,
      newPipelineStatus: effective?.pipeline?.status ?? null,
    });
  }

  return {
    poll: singleFlight(async () => {
      try {
        const listed = await deps.reader.listRevisions();
        const state = deps.getState();
        const listedIDs = new Set(listed.map((revision) => revision.id));
        for (const revision of listed) report(revision.id, revision, state.revisions[revision.id] ?? null);
        for (const stored of Object.values(state.revisions)) {
          if (!listedIDs.has(stored.id)) report(stored.id, null, stored);
        }
        failures.succeeded();
      } catch (error) {
        failures.failed(error);
      }
    }),
  };
}
