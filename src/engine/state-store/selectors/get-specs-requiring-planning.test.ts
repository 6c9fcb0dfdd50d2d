import { describe, expect, it } from 'vitest';
import { buildSpec, buildTestState } from '../../../../test/support/shared/builders/index.ts';
import { getSpecsRequiringPlanning } from './get-specs-requiring-planning.ts';

describe('getSpecsRequiringPlanning', () => {
  it('returns approved specs never planned or planned at another SHA, sorted by path', () => {
    const state = buildTestState({
      specs: [
        buildSpec({ filePath: 'z-new.md', blobSHA: 'z1' }),
        buildSpec({ filePath: 'b-changed.md', blobSHA: 'b2' }),
        buildSpec({ filePath: 'a-planned.md', blobSHA: 'a1' }),
      ],
      lastPlannedSHAs: { 'b-changed.md': 'b1', 'a-planned.md': 'a1' },
    });
    expect(getSpecsRequiringPlanning(state).map((spec) => spec.filePath)).toEqual([
      'b-changed.md',
      'z-new.md',
    ]);
  });

  it('ignores draft and deprecated specs, planned or not', () => {
    const state = buildTestState({
      specs: [
        buildSpec({ filePath: 'draft.md', frontmatterStatus: 'draft' }),
        buildSpec({ filePath: 'old.md', frontmatterStatus: 'deprecated', blobSHA: 'new' }),
      ],
      lastPlannedSHAs: { 'old.md': 'previous' },
    });
    expect(getSpecsRequiringPlanning(state)).toEqual([]);
  });

  it('returns nothing when every approved spec was planned at its current SHA', () => {
    const state = buildTestState({
      specs: [buildSpec({ blobSHA: 's' })],
      lastPlannedSHAs: { 'docs/specs/alpha.md': 's' },
    });
    expect(getSpecsRequiringPlanning(state)).toEqual([]);
  });
});
