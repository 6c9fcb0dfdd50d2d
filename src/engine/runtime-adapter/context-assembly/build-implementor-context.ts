import type { ReviewHistory } from '../../../domain/index.ts';
import type { RevisionReader, WorkItemReader } from '../../../providers/types.ts';
import type { EngineState } from '../../state-store/engine-state.ts';
import type { ImplementorStartParams } from '../types.ts';
import { buildRevisionSections } from './build-revision-sections.ts';
import { buildWorkItemSection } from './build-work-item-section.ts';
import { fetchContextData, resolveRevision, resolveWorkItem } from './fetch-context-data.ts';

export interface ImplementorContextDeps {
  getState: () => Pick<EngineState, 'workItems' | 'revisions'>;
  workItemReader: Pick<WorkItemReader, 'getWorkItem' | 'getWorkItemBody'>;
  revisionReader: Pick<RevisionReader, 'getRevision' | 'getRevisionFiles'>;
  getReviewHistory: (revisionID: string) => Promise<ReviewHistory>;
}

/**
 * The implementor's enriched prompt (seed 001 "Implementor Context"): the work item; when it has a linked
 * revision (a resume), also the revision's files, CI failure and review history. Any failed fetch rejects.
 */
export async function buildImplementorContext(
  params: Pick<ImplementorStartParams, 'workItemID'>,
  deps: ImplementorContextDeps,
): Promise<string> {
  const state = deps.getState();
  const workItem = await resolveWorkItem(params.workItemID, state, deps.workItemReader);
  const body = await fetchContextData(`the body of work item #${workItem.id}`, () =>
    deps.workItemReader.getWorkItemBody(workItem.id),
  );
  const workItemSection = buildWorkItemSection(workItem, body);
  const revisionID = workItem.linkedRevision;
  if (revisionID === null) return `${workItemSection}\n`;

  const [revision, files, history] = await Promise.all([
    resolveRevision(revisionID, state, deps.revisionReader),
    fetchContextData(`the files of revision #${revisionID}`, () =>
      deps.revisionReader.getRevisionFiles(revisionID),
    ),
    fetchContextData(`the review history of revision #${revisionID}`, () =>
      deps.getReviewHistory(revisionID),
    ),
  ]);
  const revisionSections = buildRevisionSections({ revision, files, history, includeFailedPipeline: true });
  return `${workItemSection}\n\n${revisionSections}\n`;
}
