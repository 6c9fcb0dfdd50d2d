import type { StatsRun } from './stats-records.ts';

/**
 * How well conflict-aware dispatch guessed (issue #30 §4): over the implementor runs that had an estimate and
 * completed with a patch, how often the estimate named at least one file the patch changed (`overlapping`),
 * and the share of estimated files that were changed (`precision`) and of changed files that were estimated
 * (`recall`), pooled over all those runs. Runs without an estimate are counted apart (`withoutEstimate`): the
 * scheduler could not hold them back from a neighbour.
 */
export interface FileEstimateStats {
  /** Completed implementor runs with a patch, with and without an estimate. */
  runs: number;
  withoutEstimate: number;
  /** Runs whose estimate shared at least one path with the patch. */
  overlapping: number;
  /** Estimated paths the patch changed / all estimated paths; null when there were none. */
  precision: number | null;
  /** Changed paths the estimate named / all changed paths of estimated runs; null when there were none. */
  recall: number | null;
}

export function buildFileEstimateStats(runs: readonly StatsRun[]): FileEstimateStats {
  const measured = runs.filter((run) => run.role === 'implementor' && run.changedFiles !== null);
  let withoutEstimate = 0;
  let overlapping = 0;
  let estimated = 0;
  let changed = 0;
  let shared = 0;
  for (const run of measured) {
    if (run.estimatedFiles === null) {
      withoutEstimate++;
      continue;
    }
    const changedFiles = new Set(run.changedFiles);
    const hits = new Set(run.estimatedFiles).size === 0 ? 0 : countShared(run.estimatedFiles, changedFiles);
    estimated += new Set(run.estimatedFiles).size;
    changed += changedFiles.size;
    shared += hits;
    if (hits > 0) overlapping++;
  }
  return {
    runs: measured.length,
    withoutEstimate,
    overlapping,
    precision: estimated === 0 ? null : shared / estimated,
    recall: changed === 0 ? null : shared / changed,
  };
}

function countShared(estimate: readonly string[], changed: ReadonlySet<string>): number {
  return [...new Set(estimate)].filter((path) => changed.has(path)).length;
}
