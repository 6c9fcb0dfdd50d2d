import { type EngineEvent, findAnswers } from '../../domain/index.ts';
import type { WorkItemReader } from '../../providers/types.ts';
import { createFailureReporter } from './create-failure-reporter.ts';
import type { Poller, PollerDeps } from './poller.ts';

/**
 * Reads the comments of items waiting for input and reports the first answer written after the questions
 * comment (a reply on the tracker, or one `flotilla answer` posted). Providers without `listComments` are
 * answered from the dashboard only.
 */
export function createAnswerPoller(deps: PollerDeps<WorkItemReader>): Poller {
  const failures = createFailureReporter({ source: 'answer poller', ...deps });
  return {
    name: 'answers',
    async poll(getState) {
      const listComments = deps.reader.listComments?.bind(deps.reader);
      if (listComments === undefined) return [];
      try {
        const state = getState();
        const events: EngineEvent[] = [];
        for (const waiting of Object.values(state.waitingForInput)) {
          if (waiting.answers !== null) continue;
          if (state.workItems[waiting.workItemID]?.status !== 'waiting-for-input') continue;
          const since = new Date(waiting.askedAt).toISOString();
          const answers = findAnswers(await listComments(waiting.workItemID, { since }));
          if (answers === null) continue;
          events.push({
            type: 'questionsAnswered',
            workItemID: waiting.workItemID,
            answers,
            source: 'tracker',
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
