import type { EngineEvent } from '../../domain/index.ts';
import type { EngineState } from './engine-state.ts';

/**
 * The refined-bodies part of applyStateUpdate (issue #29): a refine run requested on an item records the
 * version of its body it was given, and an applied refinement the version it wrote, so that neither is
 * refined again on its own (handlers/handle-auto-refinement.ts) — only a human's edit makes a new version.
 * A refine run stopped from outside (`cancelled`: a user's cancel, Ctrl-C, the control plane stopping) gives
 * its version back: it did not refine it. A resume after questions is the same refinement going on (its
 * version is recorded already); a run that fails on its own keeps it (no retry loop).
 */
export function applyRefinementUpdate(state: EngineState, event: EngineEvent): EngineState {
  if (event.type === 'implementorRequested' && event.mode === 'refine') {
    const item = state.workItems[event.workItemID];
    return item === undefined ? state : addRefinedBody(state, item.id, item.bodyHash ?? '');
  }
  if (event.type === 'implementorFailed' && event.reason === 'cancelled') {
    const run = state.agentRuns[event.sessionID];
    if (run?.role !== 'implementor' || run.mode !== 'refine' || run.bodyHash === undefined) return state;
    return removeRefinedBody(state, event.workItemID, run.bodyHash);
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

function removeRefinedBody(state: EngineState, workItemID: string, bodyHash: string): EngineState {
  const known = state.refinedBodies[workItemID] ?? [];
  if (!known.includes(bodyHash)) return state;
  const rest = known.filter((hash) => hash !== bodyHash);
  if (rest.length > 0) return { ...state, refinedBodies: { ...state.refinedBodies, [workItemID]: rest } };
  const { [workItemID]: _removed, ...refinedBodies } = state.refinedBodies;
  return { ...state, refinedBodies };
}

/** Whether the item's current body was refined already (see applyRefinementUpdate). */
export function isBodyRefined(state: EngineState, workItemID: string): boolean {
  const item = state.workItems[workItemID];
  if (item === undefined) return false;
  return (state.refinedBodies[workItemID] ?? []).includes(item.bodyHash ?? '');
}
