import { isCredentialsFailure } from '../../domain/index.ts';
import { getActivePlannerRun } from '../state-store/selectors/index.ts';
import type { Handler } from './handler.ts';
import { requestPlanningIfNeeded } from './request-planning-if-needed.ts';

/**
 * specChanged → plan when something needs it and no planner is active; plannerCompleted → apply the result
 * and plan again if specs changed meanwhile; plannerFailed (error/timeout) below the cap → plan again.
 */
export const handlePlanning: Handler = (event, state, config) => {
  switch (event.type) {
    case 'specChanged':
      if (getActivePlannerRun(state) !== null) return [];
      return requestPlanningIfNeeded(state);
    case 'plannerCompleted':
      return [{ type: 'applyPlannerResult', result: event.result }, ...requestPlanningIfNeeded(state)];
    case 'plannerFailed': {
      // Refused at dispatch (the planner's runtime is unavailable): retrying would be refused again.
      if (event.reason === 'cancelled' || event.reason === 'unavailable') return [];
      // Stopped at the per-run cap: planning again would stop the same way. The day's or month's cap: the
      // request waits in the paused dispatch.
      if (event.reason === 'budget') {
        return event.budgetStop?.scope === 'run' ? [] : requestPlanningIfNeeded(state);
      }
      const attempts = state.failures.planner?.attempts ?? 0;
      // Without credentials every attempt fails the same way: stop at the first.
      if (attempts >= config.maxAttempts || isCredentialsFailure(event.error)) return [];
      // The scheduler applies the backoff; the request carries the corpus as it is now.
      return requestPlanningIfNeeded(state);
    }
    default:
      return [];
  }
};
