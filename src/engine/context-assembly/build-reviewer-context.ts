import type { ReviewHistory } from '../../domain/index.ts';
import type { RevisionReader, WorkItemReader } from '../../providers/types.ts';
import type { ReviewerStartParams } from '../runtime-contract/runtime-contract.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildRevisionParts, buildRevisionSections } from './build-revision-sections.ts';
import { fetchContextData, resolveRevision, resolveWorkItem } from './fetch-context-data.ts';
import { buildWorkItemVariables, type RolePrompt } from './role-prompt.ts';

export interface ReviewerContextDeps {
  getState: () => Pick<EngineState, 'workItems' | 'revisions'>;
  workItemReader: Pick<WorkItemReader, 'getWorkItem' | 'getWorkItemBody'>;
  revisionReader: Pick<RevisionReader, 'getRevision' | 'getRevisionFiles'>;
  getReviewHistory: (revisionID: string) => Promise<ReviewHistory>;
}

/**
 * The reviewer's enriched prompt (docs/runtime-spec.md §Context Assembly): the work item, the revision's files and
 * its review history (sections omitted when empty). No CI section. Any failed fetch rejects.
 */
export async function buildReviewerContext(
  params: Pick<ReviewerStartParams, 'workItemID' | 'revisionID'>,
  deps: ReviewerContextDeps,
): Promise<string> {
  return (await buildReviewerPrompt(params, deps)).builtIn;
}

/** buildReviewerContext, with each section also as a template variable (docs/prompt-templates.md). */
export async function buildReviewerPrompt(
  params: Pick<ReviewerStartParams, 'workItemID' | 'revisionID'>,
  deps: ReviewerContextDeps,
): Promise<RolePrompt> {
  const state = deps.getState();
  const { revisionID } = params;
  const [itemVariables, revision, files, history] = await Promise.all([
    resolveWorkItem(params.workItemID, state, deps.workItemReader).then(async (workItem) =>
      buildWorkItemVariables(
        workItem,
        await fetchContextData(`the body of work item #${workItem.id}`, () =>
          deps.workItemReader.getWorkItemBody(workItem.id),
        ),
      ),
    ),
    resolveRevision(revisionID, state, deps.revisionReader),
    fetchContextData(`the files of revision #${revisionID}`, () =>
      deps.revisionReader.getRevisionFiles(revisionID),
    ),
    fetchContextData(`the review history of revision #${revisionID}`, () =>
      deps.getReviewHistory(revisionID),
    ),
  ]);
  const revisionInput = { revision, files, history, includeFailedPipeline: false };
  const revisionSections = buildRevisionSections(revisionInput);
  const parts = buildRevisionParts(revisionInput);
  return {
    builtIn: `${itemVariables.workItem}\n\n${revisionSections}\n`,
    variables: {
      ...itemVariables,
      revision: revisionSections,
      changedFiles: parts.changedFiles,
      priorReviews: parts.priorReviews,
    },
  };
}
