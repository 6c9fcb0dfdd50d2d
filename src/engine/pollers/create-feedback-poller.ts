import type { EngineEvent } from '../../domain/index.ts';
import type { RevisionReader } from '../../providers/types.ts';
import { createFailureReporter } from './create-failure-reporter.ts';
import type { Poller, PollerDeps } from './poller.ts';

/**
 * Reads humans' feedback on the open revisions of work items the engine knows (not closed) and reports
 * what it has not reported before (issue #26). Only those revisions are read: a pull request no item links
 * to costs nothing. Providers without `listFeedback` (local: `flotilla review` moves the item itself) are
 * never read.
 */
export function createFeedbackPoller(deps: PollerDeps<RevisionReader>): Poller {
  const failures = createFailureReporter({ source: 'feedback poller', ...deps });
  return {
    name: 'feedback',
    async poll(getState) {
      const listFeedback = deps.reader.listFeedback?.bind(deps.reader);
      if (listFeedback === undefined) return [];
      try {
        const state = getState();
        const events: EngineEvent[] = [];
        for (const revision of Object.values(state.revisions)) {
          const item = revision.workItemID === null ? undefined : state.workItems[revision.workItemID];
          if (item === undefined || item.status === 'closed' || item.linkedRevision !== revision.id) continue;
          const fresh = (await listFeedback(revision.id)).filter(
            (feedback) => state.seenFeedback[feedback.id] === undefined,
          );
          if (fresh.length === 0) continue;
          events.push({
            type: 'revisionFeedbackReceived',
            workItemID: item.id,
            revisionID: revision.id,
            feedback: fresh,
            at: deps.clock.now(),
          });
        }
        failures.succeeded();
        return events;
      } catch (error) {
        return failures.failed(error);
      }
    },
  };
}
