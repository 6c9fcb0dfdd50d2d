import type { EngineCommand, WorkItem } from '../../domain/index.ts';
import { isBodyRefined } from '../state-store/apply-refinement-update.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { getActiveAgentRun } from '../state-store/selectors/index.ts';
import type { Handler } from './handler.ts';
import { isAutoRefineWaitStatus } from './is-auto-refine-run.ts';

/**
 * Issue #29 §1, `refine` — when "an item in `needs-refinement`, or labelled `task:refinement`": with
 * `modes.refine.auto` on, an item that waits in needs-refinement (a run that changed nothing, failed
 * validation, review rounds spent…), or a planner's `task:refinement` item, gets a `refine` run. Bounded:
 * once per version of its body (`WorkItem.bodyHash`; the versions refined and written are in
 * `state.refinedBodies`, persisted), never while its refinement proposal waits for a human, nor while a run or
 * a wait holds it. Its report is applied or proposed as any refinement's (handle-implementation.ts). One that
 * asks parks the item waiting for input as any implementor's questions do (handle-questions.ts); answered, the
 * same refinement goes on (no new version recorded). A run that fails on its own leaves the item where it was,
 * and only a human's edit of the body refines it again; one stopped from outside does not count
 * (state-store/apply-refinement-update.ts).
 */
export const handleAutoRefinement: Handler = (event, state, config) => {
  if (config.autoRefine !== true || event.type !== 'workItemChanged') return [];
  const item = state.workItems[event.workItemID];
  if (item === undefined || !wantsRefinement(item, state)) return [];
  return [{ type: 'requestImplementorRun', workItemID: item.id, mode: 'refine' }] satisfies EngineCommand[];
};

function wantsRefinement(item: WorkItem, state: EngineState): boolean {
  if (item.kind !== 'task' && item.kind !== 'refinement') return false;
  // An investigation reports on a bug; a `task:refine` item is refined through its own label's run.
  if (item.mode !== undefined) return false;
  if (!isAutoRefineWaitStatus(item, item.status)) return false;
  if (isBodyRefined(state, item.id)) return false;
  if (state.waitingForInput[item.id] !== undefined) return false;
  if (getActiveAgentRun(state, item.id) !== null) return false;
  return !Object.values(state.proposals).some(
    (proposal) => proposal.status === 'pending' && proposal.subjectID === item.id,
  );
}
