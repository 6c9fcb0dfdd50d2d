import { isAgentRunActive, type PlannerRun } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/** The requested or running planner run, or null. */
export function getActivePlannerRun(state: EngineState): PlannerRun | null {
  for (const run of Object.values(state.agentRuns)) {
    if (run.role === 'planner' && isAgentRunActive(run)) return run;
  }
  return null;
}
