import { type ImplementorRun, isAgentRunActive, type ReviewerRun } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/**
 * The requested or running implementor/reviewer run for a work item, or null. Pass `role` to look for one
 * role only. There is normally at most one (the executor's guards see to that); if not, the first wins.
 */
export function getActiveAgentRun(
  state: EngineState,
  workItemID: string,
  role?: 'implementor' | 'reviewer',
): ImplementorRun | ReviewerRun | null {
  for (const run of Object.values(state.agentRuns)) {
    if (run.role === 'planner' || run.workItemID !== workItemID) continue;
    if (role !== undefined && run.role !== role) continue;
    if (isAgentRunActive(run)) return run;
  }
  return null;
}
