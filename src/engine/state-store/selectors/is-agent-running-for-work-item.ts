import type { EngineState } from '../engine-state.ts';
import { getActiveAgentRun } from './get-active-agent-run.ts';

/** Whether an implementor or reviewer run is requested or running for the work item. */
export function isAgentRunningForWorkItem(state: EngineState, workItemID: string): boolean {
  return getActiveAgentRun(state, workItemID) !== null;
}
