import type { Spec } from '../../../domain/index.ts';
import { compareCodePoints } from '../compare-code-points.ts';
import type { EngineState } from '../engine-state.ts';

/** Approved specs never planned, or planned at another blob SHA; sorted by path. */
export function getSpecsRequiringPlanning(state: EngineState): Spec[] {
  return Object.values(state.specs)
    .filter(
      (spec) =>
        spec.frontmatterStatus === 'approved' && state.lastPlannedSHAs[spec.filePath] !== spec.blobSHA,
    )
    .sort((a, b) => compareCodePoints(a.filePath, b.filePath));
}
