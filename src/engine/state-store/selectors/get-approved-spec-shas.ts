import { compareCodePoints } from '../compare-code-points.ts';
import type { EngineState } from '../engine-state.ts';

/**
 * Path → current blob SHA of every approved spec, keys in path order: what a planner request carries (the
 * planner always sees the whole approved corpus, and these are the SHAs recorded as planned on success).
 */
export function getApprovedSpecSHAs(state: EngineState): Record<string, string> {
  const approved = Object.values(state.specs)
    .filter((spec) => spec.frontmatterStatus === 'approved')
    .sort((a, b) => compareCodePoints(a.filePath, b.filePath));
  return Object.fromEntries(approved.map((spec) => [spec.filePath, spec.blobSHA]));
}
