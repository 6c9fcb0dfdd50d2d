import type { EngineCommand, RequestPlannerRun } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { getApprovedSpecSHAs, getSpecsRequiringPlanning } from '../state-store/selectors/index.ts';

/**
 * A planner request when some approved spec is not planned at its current version, else nothing. The planner
 * always gets every approved spec, with the SHAs it will be recorded as having planned.
 */
export function requestPlanningIfNeeded(state: EngineState): EngineCommand[] {
  if (getSpecsRequiringPlanning(state).length === 0) return [];
  const specSHAs = getApprovedSpecSHAs(state);
  const command: RequestPlannerRun = {
    type: 'requestPlannerRun',
    specPaths: Object.keys(specSHAs),
    specSHAs,
  };
  return [command];
}
