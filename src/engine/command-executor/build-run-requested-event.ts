import type { EngineEvent } from '../../domain/index.ts';
import type { AgentStartParams } from '../runtime-contract/runtime-contract.ts';
import type { AdmittedRun } from '../scheduler/create-scheduler.ts';

/** The *Requested event and the adapter params for an admitted run (one place decides branch names). */
export function buildRunRequest(
  run: AdmittedRun,
  branchPrefix: string,
): { event: EngineEvent; params: AgentStartParams } {
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
        params: { role: 'planner', sessionID, specPaths: command.specPaths },
      };
    case 'requestImplementorRun': {
      const branchName = `${branchPrefix}${command.workItemID}`;
      return {
        event: { type: 'implementorRequested', sessionID, workItemID: command.workItemID, branchName, at },
        params: { role: 'implementor', sessionID, workItemID: command.workItemID, branchName },
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
        params: {
          role: 'reviewer',
          sessionID,
          workItemID: command.workItemID,
          revisionID: command.revisionID,
        },
      };
  }
}
