import type { AgentRole } from '../../../domain/index.ts';
import { type EngineState, type FailureRecord, failureKey } from '../engine-state.ts';

/** Consecutive failures of a role (for a work item), or null when there are none. */
export function getFailureRecord(
  state: EngineState,
  role: AgentRole,
  workItemID?: string,
): FailureRecord | null {
  return state.failures[failureKey(role, workItemID)] ?? null;
}
