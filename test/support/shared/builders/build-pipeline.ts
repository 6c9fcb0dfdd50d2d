import type { Pipeline, PipelineStatus } from '../../../../src/domain/index.ts';

/** A pipeline in `status`; a failure gets a reason and a log URL like a real one. */
export function buildPipeline(status: PipelineStatus): Pipeline {
  return status === 'failure'
    ? { status, url: 'https://ci.example/runs/1', reason: 'unit tests' }
    : { status, url: null, reason: null };
}
