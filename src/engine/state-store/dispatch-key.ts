import type { AgentRun, AgentRunRequestCommand } from '../../domain/index.ts';
import { failureKey } from './engine-state.ts';

/**
 * Key of a run request in `dispatchQueue`: `planner`, `implementor:<wi>` or `reviewer:<wi>`, from the request
 * or from the run it became. One entry per key, so a role waits at most once per work item. Same shape as
 * `failureKey`, on purpose.
 */
export function buildDispatchKey(target: AgentRunRequestCommand | AgentRun): string {
  if ('role' in target) {
    return target.role === 'planner' ? failureKey('planner') : failureKey(target.role, target.workItemID);
  }
  switch (target.type) {
    case 'requestPlannerRun':
      return failureKey('planner');
    case 'requestImplementorRun':
      return failureKey('implementor', target.workItemID);
    case 'requestReviewerRun':
      return failureKey('reviewer', target.workItemID);
  }
}
