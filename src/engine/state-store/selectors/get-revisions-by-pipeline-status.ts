import type { PipelineStatus, Revision } from '../../../domain/index.ts';
import type { EngineState } from '../engine-state.ts';

/** Revisions whose pipeline is `status`; revisions with an unknown (null) pipeline never match. */
export function getRevisionsByPipelineStatus(state: EngineState, status: PipelineStatus): Revision[] {
  return Object.values(state.revisions).filter((revision) => revision.pipeline?.status === status);
}
