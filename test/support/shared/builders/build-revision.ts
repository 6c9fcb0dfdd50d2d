import type { Revision } from '../../../../src/domain/index.ts';
import { buildPipeline } from './build-pipeline.ts';

/** An open revision for `wi-1` with a green pipeline and no review, unless overridden. */
export function buildRevision(overrides: Partial<Revision> = {}): Revision {
  const id = overrides.id ?? 'rev-1';
  const workItemID = overrides.workItemID === undefined ? 'wi-1' : overrides.workItemID;
  return {
    id,
    title: `Revision ${id}`,
    url: null,
    headSHA: `head-${id}`,
    headRef: `flotilla/${workItemID ?? id}`,
    author: 'flotilla',
    body: workItemID === null ? '' : `Closes #${workItemID}`,
    isDraft: false,
    workItemID,
    pipeline: buildPipeline('success'),
    reviewID: null,
    ...overrides,
  };
}
