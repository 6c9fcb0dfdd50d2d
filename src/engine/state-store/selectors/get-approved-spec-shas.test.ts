import { describe, expect, it } from 'vitest';
import { buildSpec, buildTestState } from '../../../../test/support/shared/builders/index.ts';
import { getApprovedSpecSHAs } from './get-approved-spec-shas.ts';

describe('getApprovedSpecSHAs', () => {
  it('maps every approved spec, planned or not, to its current SHA, in path order', () => {
    const state = buildTestState({
      specs: [
        buildSpec({ filePath: 'c.md', blobSHA: 'c1' }),
        buildSpec({ filePath: 'a.md', blobSHA: 'a2' }),
        buildSpec({ filePath: 'B.md', blobSHA: 'b1', frontmatterStatus: 'draft' }),
        buildSpec({ filePath: 'd.md', blobSHA: 'd1', frontmatterStatus: 'deprecated' }),
      ],
      lastPlannedSHAs: { 'a.md': 'a1', 'c.md': 'c1' },
    });
    const shas = getApprovedSpecSHAs(state);
    expect(shas).toEqual({ 'a.md': 'a2', 'c.md': 'c1' });
    expect(Object.keys(shas)).toEqual(['a.md', 'c.md']);
  });

  it('is empty without approved specs', () => {
    expect(
      getApprovedSpecSHAs(buildTestState({ specs: [buildSpec({ frontmatterStatus: 'draft' })] })),
    ).toEqual({});
  });
});
