import { isDeepStrictEqual } from 'node:util';
import type { EngineEvent, Revision } from '../../domain/index.ts';
import type { RevisionReader } from '../../providers/types.ts';
import { createFailureReporter } from './create-failure-reporter.ts';
import type { Poller, PollerDeps } from './poller.ts';

function change(id: string, observed: Revision | null, stored: Revision | null): EngineEvent[] {
  // An unknown pipeline (a failed CI fetch) keeps the last known one: no removal, no change every poll.
  const effective =
    observed && observed.pipeline === null && stored ? { ...observed, pipeline: stored.pipeline } : observed;
  if (isDeepStrictEqual(effective, stored)) return [];
  return [
    {
      type: 'revisionChanged',
      revisionID: id,
      workItemID: effective?.workItemID ?? stored?.workItemID ?? null,
      revision: effective,
      oldPipelineStatus: stored?.pipeline?.status ?? null,
      newPipelineStatus: effective?.pipeline?.status ?? null,
    },
  ];
}

/** Diffs open revisions against the store; revisions no longer open are removed. */
export function createRevisionPoller(deps: PollerDeps<RevisionReader>): Poller {
  const failures = createFailureReporter({ source: 'revision poller', ...deps });
  return {
    name: 'revisions',
    async poll(getState) {
      try {
        const listed = await deps.reader.listRevisions();
        const state = getState();
        const listedIDs = new Set(listed.map((revision) => revision.id));
        const events: EngineEvent[] = [];
        for (const revision of listed)
          events.push(...change(revision.id, revision, state.revisions[revision.id] ?? null));
        for (const stored of Object.values(state.revisions)) {
          if (!listedIDs.has(stored.id)) events.push(...change(stored.id, null, stored));
        }
        failures.succeeded();
        return events;
      } catch (error) {
        return failures.failed(error);
      }
    },
  };
}
