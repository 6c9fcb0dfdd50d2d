import type { PipelineStatus, Revision, RevisionChanged } from '../../../../src/domain/index.ts';

/** The event a poller emits when it sees `revision` (first sighting when `oldPipelineStatus` is null). */
export function buildRevisionChanged(
  revision: Revision,
  oldPipelineStatus: PipelineStatus | null = null,
): RevisionChanged {
  return {
    type: 'revisionChanged',
    revisionID: revision.id,
    workItemID: revision.workItemID,
    revision,
    oldPipelineStatus,
    newPipelineStatus: revision.pipeline?.status ?? null,
  };
}
