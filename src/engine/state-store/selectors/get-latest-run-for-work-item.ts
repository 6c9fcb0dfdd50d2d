import type { ImplementorRun, ReviewerRun } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/**
 * The most recently requested implementor/reviewer run for a work item (any status), or null. Pass `role` to
 * consider one role only. Equal `requestedAt`: the run stored later wins.
 */
export function getLatestRunForWorkItem(
  state: EngineState,
  workItemID: string,
  role?: 'implementor' | 'reviewer',
): ImplementorRun | ReviewerRun | null {
  let latest: ImplementorRun | ReviewerRun | null = null;
  for (const run of Object.values(state.agentRuns)) {
    if (run.role === 'planner' || run.workItemID !== workItemID) continue;
    if (role !== undefined && run.role !== role) continue;
    if (latest === null || run.requestedAt >= latest.requestedAt) latest = run;
  }
  return latest;
}
