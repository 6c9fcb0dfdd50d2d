import type { PlannerResult } from '../../../../src/domain/index.ts';

/** A planner result creating two tasks, the second blocked by the first, unless overridden. */
export function buildPlannerResult(overrides: Partial<PlannerResult> = {}): PlannerResult {
  return {
    role: 'planner',
    create: [
      {
        tempID: 'new-1',
        title: 'Add the parser',
        body: 'Objective: parse',
        labels: ['task:implement'],
        blockedBy: [],
      },
      {
        tempID: 'new-2',
        title: 'Wire the parser in',
        body: 'Objective: wire',
        labels: ['task:implement', 'priority:high'],
        blockedBy: ['new-1'],
      },
    ],
    close: [],
    update: [],
    ...overrides,
  };
}
