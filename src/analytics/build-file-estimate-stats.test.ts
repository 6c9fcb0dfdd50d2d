import { describe, expect, it } from 'vitest';
import { buildFileEstimateStats } from './build-file-estimate-stats.ts';
import type { StatsRun } from './stats-records.ts';

let sequence = 0;
function implementorRun(
  estimatedFiles: readonly string[] | null,
  changedFiles: readonly string[] | null,
  role: StatsRun['role'] = 'implementor',
): StatsRun {
  sequence += 1;
  return {
    sessionID: `s${sequence}`,
    role,
    workItemID: '1',
    status: 'completed',
    failureReason: null,
    cancelRequestedBy: null,
    requestedAt: 0,
    endedAt: 1,
    costUSD: null,
    inputTokens: null,
    outputTokens: null,
    runtime: 'claude',
    model: null,
    account: null,
    estimatedFiles,
    changedFiles,
  };
}

describe('buildFileEstimateStats', () => {
  it('says nothing was measured when no implementor completed with a patch', () => {
    expect(buildFileEstimateStats([implementorRun(['a.ts'], null), implementorRun(null, null)])).toEqual({
      runs: 0,
      withoutEstimate: 0,
      overlapping: 0,
      precision: null,
      recall: null,
    });
  });

  it('pools hits over runs: overlap per run, precision over estimated paths, recall over changed ones', () => {
    const stats = buildFileEstimateStats([
      // Right on one of two guesses; changed one file more than guessed.
      implementorRun(['src/a.ts', 'src/b.ts'], ['src/a.ts', 'src/c.ts']),
      // Wrong.
      implementorRun(['src/d.ts'], ['src/e.ts']),
      // No estimate: counted apart, not in precision or recall.
      implementorRun(null, ['src/f.ts']),
      // A reviewer's run never counts.
      implementorRun(['x'], ['x'], 'reviewer'),
    ]);
    expect(stats).toEqual({ runs: 3, withoutEstimate: 1, overlapping: 1, precision: 1 / 3, recall: 1 / 3 });
  });

  it('counts a path named twice in an estimate once', () => {
    expect(buildFileEstimateStats([implementorRun(['a.ts', 'a.ts'], ['a.ts'])])).toMatchObject({
      overlapping: 1,
      precision: 1,
      recall: 1,
    });
  });
});
