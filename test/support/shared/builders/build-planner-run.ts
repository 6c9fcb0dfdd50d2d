import type { PlannerRun } from '../../../../src/domain/index.ts';
import { buildRunBase } from './build-run-base.ts';

/** A running planner given `docs/specs/alpha.md` at `sha-alpha-1`, unless overridden. */
export function buildPlannerRun(overrides: Partial<PlannerRun> = {}): PlannerRun {
  const sessionID = overrides.sessionID ?? 'planner-session-1';
  return {
    ...buildRunBase(sessionID, overrides.status ?? 'running'),
    role: 'planner',
    specPaths: ['docs/specs/alpha.md'],
    specSHAs: { 'docs/specs/alpha.md': 'sha-alpha-1' },
    ...overrides,
  };
}
