import { type AgentRole, isAgentRunActive } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/** Requested or running runs (all roles, planner included, or only `role`): what occupies agent slots. */
export function countActiveRuns(state: EngineState, role?: AgentRole): number {
  return Object.values(state.agentRuns).filter(
    (run) => isAgentRunActive(run) && (role === undefined || run.role === role),
  ).length;
}
