import type { AgentRunRequestCommand } from '../../domain/index.ts';

/** The work item a run request is for; null for the planner. */
export function dispatchWorkItemID(command: AgentRunRequestCommand): string | null {
  return command.type === 'requestPlannerRun' ? null : command.workItemID;
}
