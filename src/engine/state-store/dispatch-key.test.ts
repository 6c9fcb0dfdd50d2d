import { describe, expect, it } from 'vitest';
import {
  buildImplementorRun,
  buildPlannerRun,
  buildReviewerRun,
} from '../../../test/support/shared/builders/index.ts';
import { buildDispatchKey } from './dispatch-key.ts';

describe('buildDispatchKey', () => {
  it('keys requests by role and work item', () => {
    expect(
      buildDispatchKey({ type: 'requestPlannerRun', specPaths: ['a.md'], specSHAs: { 'a.md': 's' } }),
    ).toBe('planner');
    expect(buildDispatchKey({ type: 'requestImplementorRun', workItemID: 'wi-7' })).toBe('implementor:wi-7');
    expect(buildDispatchKey({ type: 'requestReviewerRun', workItemID: 'wi-7', revisionID: 'rev-1' })).toBe(
      'reviewer:wi-7',
    );
  });

  it('gives a run the key of the request it came from', () => {
    expect(buildDispatchKey(buildPlannerRun())).toBe('planner');
    expect(buildDispatchKey(buildImplementorRun({ workItemID: 'wi-3' }))).toBe('implementor:wi-3');
    expect(buildDispatchKey(buildReviewerRun({ workItemID: 'wi-4' }))).toBe('reviewer:wi-4');
  });
});
