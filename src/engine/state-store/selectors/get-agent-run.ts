import type { AgentRun } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/** The run with this session id, or null. */
export function getAgentRun(state: EngineState, sessionID: string): AgentRun | null {
  return state.agentRuns[sessionID] ?? null;
}
