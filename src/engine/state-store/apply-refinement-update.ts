import type { EngineEvent } from '../../domain/index.ts';
import type { EngineState } from './engine-state.ts';

/**
 * The refined-bodies part of applyStateUpdate (issue #29): a refine run requested on an item records the
 * version of its body it was given, and an applied refinement the version it wrote, so that neither is
 * refined again on its own (handlers/handle-auto-refinement.ts) — only a human's edit makes a new version.
 */
export function applyRefinementUpdate(state: EngineState, event: EngineEvent): EngineState {
  if (event.type === 'implementorRequested' && event.mode === 'refine') {
    const item = state.workItems[event.workItemID];
    return item === undefined ? state : addRefinedBody(state, item.id, item.bodyHash ?? '');
  }
  if (event.type === 'modeResultApplied' && event.report.mode === 'refine' && event.bodyHash !== undefined)
    return addRefinedBody(state, event.workItemID, event.bodyHash);
  return state;
}

/** `state` with `bodyHash` among the item's refined versions (the same state when it is already there). */
export function addRefinedBody(state: EngineState, workItemID: string, bodyHash: string): EngineState {
  const known = state.refinedBodies[workItemID] ?? [];
  if (known.includes(bodyHash)) return state;
  return { ...state, refinedBodies: { ...state.refinedBodies, [workItemID]: [...known, bodyHash] } };
}

/** Whether the item's current body was refined already (see applyRefinementUpdate). */
export function isBodyRefined(state: EngineState, workItemID: string): boolean {
  const item = state.workItems[workItemID];
  if (item === undefined) return false;
  return (state.refinedBodies[workItemID] ?? []).includes(item.bodyHash ?? '');
}
