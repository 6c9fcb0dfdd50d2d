import { formatMergeConflict, type MergeConflict, type ReviewHistory } from '../../domain/index.ts';
import type { ChecksOutputTail, RevisionReader, WorkItemReader } from '../../providers/types.ts';
import type { ImplementorStartParams } from '../runtime-contract/runtime-contract.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildFeedbackSection } from './build-feedback-section.ts';
import { buildRevisionParts, buildRevisionSections } from './build-revision-sections.ts';
import { fetchContextData, resolveRevision, resolveWorkItem } from './fetch-context-data.ts';
import { buildWorkItemVariables, type RolePrompt } from './role-prompt.ts';

export interface ImplementorContextDeps {
  getState: () => Pick<EngineState, 'workItems' | 'revisions'> &
    Partial<Pick<EngineState, 'revisionFeedback' | 'mergeConflicts'>>;
  workItemReader: Pick<WorkItemReader, 'getWorkItem' | 'getWorkItemBody'>;
  revisionReader: Pick<RevisionReader, 'getRevision' | 'getRevisionFiles' | 'getChecksOutputTail'>;
  getReviewHistory: (revisionID: string) => Promise<ReviewHistory>;
}

/** The failed checks' output when the provider keeps it; a log that cannot be read only loses the tail. */
async function readChecksOutput(
  revisionID: string,
  reader: Pick<RevisionReader, 'getChecksOutputTail'>,
): Promise<ChecksOutputTail | null> {
  if (reader.getChecksOutputTail === undefined) return null;
  try {
    return await reader.getChecksOutputTail(revisionID);
  } catch {
    return null;
  }
}

/**
 * The implementor's enriched prompt (docs/runtime-spec.md §Context Assembly): the work item; when it has a linked
 * revision (a resume), also the revision's files, CI failure (with the end of the checks output when the
 * provider keeps it), review history, and the humans' feedback it is given to answer (issue #26: the
 * state's `revisionFeedback` not answered yet); last, what it builds on (`buildsOn`, issue #30). Any failed
 * fetch rejects.
 */
export async function buildImplementorContext(
  params: Pick<ImplementorStartParams, 'workItemID'>,
  deps: ImplementorContextDeps,
): Promise<string> {
  return (await buildImplementorPrompt(params, deps)).builtIn;
}

/** buildImplementorContext, with each section also as a template variable (docs/prompt-templates.md). */
export async function buildImplementorPrompt(
  params: Pick<ImplementorStartParams, 'workItemID'> & { buildsOn?: string },
  deps: ImplementorContextDeps,
): Promise<RolePrompt> {
  const rolePrompt = await buildImplementorSections(params, deps);
  const buildsOn = params.buildsOn ?? '';
  return {
    builtIn: buildsOn === '' ? rolePrompt.builtIn : `${rolePrompt.builtIn}\n${buildsOn}\n`,
    variables: { ...rolePrompt.variables, buildsOn },
  };
}

async function buildImplementorSections(
  params: Pick<ImplementorStartParams, 'workItemID'>,
  deps: ImplementorContextDeps,
): Promise<RolePrompt> {
  const state = deps.getState();
  const workItem = await resolveWorkItem(params.workItemID, state, deps.workItemReader);
  const body = await fetchContextData(`the body of work item #${workItem.id}`, () =>
    deps.workItemReader.getWorkItemBody(workItem.id),
  );
  const itemVariables = buildWorkItemVariables(workItem, body);
  const workItemSection = itemVariables.workItem as string;
  const revisionID = workItem.linkedRevision;
  const conflict = state.mergeConflicts?.[workItem.id];
  const mergeConflict = conflict === undefined ? '' : buildMergeConflictSection(conflict);
  const conflictPart = mergeConflict === '' ? '' : `\n${mergeConflict}\n`;
  const noRevision = { revision: '', changedFiles: '', ciFailure: '', priorReviews: '', feedback: '' };
  if (revisionID === null)
    return {
      builtIn: `${workItemSection}\n${conflictPart}`,
      variables: { ...itemVariables, ...noRevision, mergeConflict },
    };

  const [revision, files, history] = await Promise.all([
    resolveRevision(revisionID, state, deps.revisionReader),
    fetchContextData(`the files of revision #${revisionID}`, () =>
      deps.revisionReader.getRevisionFiles(revisionID),
    ),
    fetchContextData(`the review history of revision #${revisionID}`, () =>
      deps.getReviewHistory(revisionID),
    ),
  ]);
  const checksOutput =
    revision.pipeline?.status === 'failure' ? await readChecksOutput(revisionID, deps.revisionReader) : null;
  const revisionInput = { revision, files, history, includeFailedPipeline: true, checksOutput };
  const revisionSections = buildRevisionSections(revisionInput);
  const parts = buildRevisionParts(revisionInput);
  const feedback = (state.revisionFeedback?.[workItem.id] ?? [])
    .filter((entry) => entry.answer === null)
    .map((entry) => entry.feedback);
  const feedbackSection = buildFeedbackSection(feedback);
  return {
    builtIn: `${workItemSection}\n\n${revisionSections}\n${feedbackSection === '' ? '' : `\n${feedbackSection}\n`}${conflictPart}`,
    variables: {
      ...itemVariables,
      revision: revisionSections,
      changedFiles: parts.changedFiles,
      ciFailure: parts.ciFailure,
      priorReviews: parts.priorReviews,
      feedback: feedbackSection,
      mergeConflict,
    },
  };
}

/**
 * The merge queue sent the item back because its approved revision no longer applies to the default branch
 * (issue #30 §5): which files and hunks conflict, and what to do.
 */
export function buildMergeConflictSection(conflict: MergeConflict): string {
  return `## Merge Conflict\n\n${formatMergeConflict(conflict)}\n\nYour worktree starts from the current default branch, which already holds the other side of these hunks. Make this item's change again on top of it, keeping what the default branch has.`;
}
