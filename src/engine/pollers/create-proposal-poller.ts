import { type EngineEvent, findProposalDecision } from '../../domain/index.ts';
import type { WorkItemReader } from '../../providers/types.ts';
import { createFailureReporter } from './create-failure-reporter.ts';
import type { Poller, PollerDeps } from './poller.ts';

/**
 * Reads the comments of the pending proposal's item (and of the item an investigation or refinement is
 * about, where it is posted too) and reports the first `/accept` or `/reject <why>` after the proposal
 * comment (a reply on the tracker, or one `flotilla proposals accept|reject` posted). On the proposal's own
 * item a plain reply is feedback (issue #29): with no command, every such reply, in order, is a rejection
 * with that reason (`feedback`), which revises the proposal as `/reject <why>` does; on the item an
 * investigation or refinement is about, where people discuss the bug, only commands count. Which authors
 * count is the provider's rule, as for answers (GitHub: `github.answerAuthorAssociations`; a drive-by
 * user's `/accept` or comment is never listed). Only pending proposals are read, so a decided one's
 * comments are never read again, a restart included. Providers without `listComments` are decided from
 * the dashboard only.
 */
export function createProposalPoller(deps: PollerDeps<WorkItemReader>): Poller {
  const failures = createFailureReporter({ source: 'proposal poller', ...deps });
  return {
    name: 'proposals',
    async poll(getState) {
      const listComments = deps.reader.listComments?.bind(deps.reader);
      if (listComments === undefined) return [];
      try {
        const events: EngineEvent[] = [];
        for (const proposal of Object.values(getState().proposals)) {
          if (proposal.status !== 'pending') continue;
          const since = new Date(proposal.createdAt).toISOString();
          // An investigation's or refinement's proposal is posted on the item it is about as well.
          const items = [proposal.id, ...(proposal.subjectID == null ? [] : [proposal.subjectID])];
          let decision: ReturnType<typeof findProposalDecision> = null;
          for (const item of items) {
            const comments = await listComments(item, { since });
            decision = findProposalDecision(comments, { feedback: item === proposal.id });
            if (decision !== null) break;
          }
          if (decision === null) continue;
          events.push({
            type: 'proposalDecided',
            proposalID: proposal.id,
            decision: decision.decision,
            reason: decision.reason,
            author: decision.author,
            source: 'tracker',
            at: deps.clock.now(),
            ...(decision.edited !== undefined && { edited: decision.edited }),
            ...(decision.feedback === true && { feedback: true }),
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
