import type { EngineEvent } from '../../domain/index.ts';
import type { AgentRunRequest } from '../runtime-contract/runtime-contract.ts';
import type { AdmittedRun } from '../scheduler/create-scheduler.ts';

/**
 * The *Requested event and the run request for an admitted run (one place decides branch names); context
 * assembly adds the prompt before the runtime gets it.
 */
export function buildRunRequest(
  run: AdmittedRun,
  branchPrefix: string,
  account?: string,
): { event: EngineEvent; request: AgentRunRequest } {
  const { event, request } = buildWithoutAccount(run, branchPrefix);
  if (account === undefined) return { event, request };
  return { event: { ...event, account } as EngineEvent, request: { ...request, account } };
}

function buildWithoutAccount(
  run: AdmittedRun,
  branchPrefix: string,
): { event: EngineEvent; request: AgentRunRequest } {
  const { sessionID, command, at } = run;
  switch (command.type) {
    case 'requestPlannerRun':
      return {
        event: {
          type: 'plannerRequested',
          sessionID,
          specPaths: command.specPaths,
          specSHAs: command.specSHAs,
          at,
        },
        request: { role: 'planner', sessionID, specPaths: command.specPaths, specSHAs: command.specSHAs },
      };
    case 'requestImplementorRun': {
      const branchName = `${branchPrefix}${command.workItemID}`;
      return {
        event: { type: 'implementorRequested', sessionID, workItemID: command.workItemID, branchName, at },
        request: { role: 'implementor', sessionID, workItemID: command.workItemID, branchName },
      };
    }
    case 'requestReviewerRun':
      return {
        event: {
          type: 'reviewerRequested',
          sessionID,
          workItemID: command.workItemID,
          revisionID: command.revisionID,
          at,
        },
        request: {
          role: 'reviewer',
          sessionID,
          workItemID: command.workItemID,
          revisionID: command.revisionID,
        },
      };
  }
}
