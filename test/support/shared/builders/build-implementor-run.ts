import type { ImplementorRun } from '../../../../src/domain/index.ts';
import { buildRunBase } from './build-run-base.ts';

/** A running implementor for `wi-1` on `flotilla/<wi>`, unless overridden. */
export function buildImplementorRun(overrides: Partial<ImplementorRun> = {}): ImplementorRun {
  const sessionID = overrides.sessionID ?? 'implementor-session-1';
  const workItemID = overrides.workItemID ?? 'wi-1';
  return {
    ...buildRunBase(sessionID, overrides.status ?? 'running'),
    role: 'implementor',
    workItemID,
    branchName: `flotilla/${workItemID}`,
    ...overrides,
  };
}
