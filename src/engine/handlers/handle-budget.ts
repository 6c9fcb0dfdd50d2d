import { buildOverBudgetComment } from './comments/build-over-budget-comment.ts';
import type { Handler } from './handler.ts';

/** A work item the budget refused another run: parked as blocked, with a comment saying what to raise. */
export const handleBudget: Handler = (event) => {
  if (event.type !== 'workItemOverBudget') return [];
  return [
    {
      type: 'transitionWorkItemStatus',
      workItemID: event.workItemID,
      newStatus: 'blocked',
      cause: 'over-budget',
    },
    { type: 'commentOnWorkItem', workItemID: event.workItemID, body: buildOverBudgetComment(event) },
  ];
};
