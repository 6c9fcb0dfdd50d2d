import type { EngineCommand, WorkItem } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { getActiveAgentRun, getActivePlannerRun } from '../state-store/selectors/index.ts';
import type { Handler } from './handler.ts';

/** Marks the engine's comment on an orphaned questions item (never read as an answer). */
const ORPHANED_COMMENT_MARKER = '<!-- flotilla:questions-orphaned -->';

/**
 * workItemChanged to in-progress with no active implementor run (e.g. after a restart) → back to pending, from
 * where readiness dispatches it again. A planner's `questions` item that no planner is on any more (in
 * progress with no active planner — the process stopped during the resumed run —, or waiting with no kept
 * session) is closed with a comment: the planner plans afresh.
 */
export const handleOrphanedWorkItem: Handler = (event, state) => {
  if (event.type !== 'workItemChanged') return [];
  const workItem = state.workItems[event.workItemID];
  if (workItem === undefined || workItem.status !== event.newStatus) return [];
  if (workItem.kind === 'questions') return closeOrphanedQuestions(workItem, state);
  if (workItem.status !== 'in-progress') return [];
  if (getActiveAgentRun(state, workItem.id, 'implementor') !== null) return [];
  return [
    { type: 'transitionWorkItemStatus', workItemID: workItem.id, newStatus: 'pending', cause: 'orphaned' },
  ];
};

function closeOrphanedQuestions(item: WorkItem, state: EngineState): EngineCommand[] {
  if (item.status !== 'in-progress' && item.status !== 'waiting-for-input') return [];
  if (getActivePlannerRun(state) !== null) return [];
  if (item.status === 'waiting-for-input' && state.waitingForInput[item.id] !== undefined) return [];
  return [
    {
      type: 'commentOnWorkItem',
      workItemID: item.id,
      body:
        `${ORPHANED_COMMENT_MARKER}\nNo planner session is on these questions any more (the control plane ` +
        'stopped while it ran, or its kept session is gone); they are closed and the specs are planned afresh.',
    },
    { type: 'transitionWorkItemStatus', workItemID: item.id, newStatus: 'closed', cause: 'planner' },
  ];
}
