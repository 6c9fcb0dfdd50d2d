import { describe, expect, it } from 'vitest';
import {
  buildPipeline,
  buildRevision,
  buildTestState,
} from '../../../../test/support/shared/builders/index.ts';
import { getRevisionsByPipelineStatus } from './get-revisions-by-pipeline-status.ts';

describe('getRevisionsByPipelineStatus', () => {
  const state = buildTestState({
    revisions: [
      buildRevision({ id: 'r-ok', pipeline: buildPipeline('success') }),
      buildRevision({ id: 'r-wait', pipeline: buildPipeline('pending') }),
      buildRevision({ id: 'r-bad', pipeline: buildPipeline('failure') }),
      buildRevision({ id: 'r-unknown', pipeline: null }),
      buildRevision({ id: 'r-ok-2', pipeline: buildPipeline('success') }),
    ],
  });

  it('returns the revisions whose pipeline has that status', () => {
    expect(getRevisionsByPipelineStatus(state, 'success').map((r) => r.id)).toEqual(['r-ok', 'r-ok-2']);
    expect(getRevisionsByPipelineStatus(state, 'pending').map((r) => r.id)).toEqual(['r-wait']);
    expect(getRevisionsByPipelineStatus(state, 'failure').map((r) => r.id)).toEqual(['r-bad']);
  });

  it('never returns a revision with an unknown pipeline', () => {
    const all = (['success', 'pending', 'failure'] as const).flatMap((status) =>
      getRevisionsByPipelineStatus(state, status),
    );
    expect(all.map((r) => r.id)).not.toContain('r-unknown');
    expect(all).toHaveLength(4);
  });
});
