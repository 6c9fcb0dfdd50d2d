import type { Spec, SpecChanged } from '../../../../src/domain/index.ts';

/** The event the spec poller emits for `spec`. */
export function buildSpecChanged(
  spec: Spec,
  changeType: SpecChanged['changeType'] = 'modified',
): SpecChanged {
  return {
    type: 'specChanged',
    filePath: spec.filePath,
    blobSHA: spec.blobSHA,
    frontmatterStatus: spec.frontmatterStatus,
    changeType,
    commitSHA: 'commit-head',
  };
}
