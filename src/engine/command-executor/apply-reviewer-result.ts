import type { ApplyReviewerResult, EngineEvent } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import { buildRevisionChanged } from './build-change-events.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';
import { transitionWorkItem } from './transition-work-item.ts';

/**
 * Where a reviewer's verdict becomes a review on the revision. Posts the review (or replaces the one the
 * revision already has), comments the summary on the item, and moves the item: `approve` → `approved`,
 * `needs-changes` → `command.needsChangesStatus` (the review handler picks it from the round count).
 */
export async function applyReviewerResult(
  command: ApplyReviewerResult,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'workItemWriter' | 'revisionWriter'>,
): Promise<EngineEvent[]> {
  const { workItemWriter, revisionWriter } = deps;
  const item = state.workItems[command.workItemID];
  if (!item) throw new Error(`work item #${command.workItemID} is not known`);
  const revision = state.revisions[command.revisionID];
  if (!revision) throw new Error(`revision ${command.revisionID} is not known`);
  const reviewID = revision.reviewID
    ? await revisionWriter.updateReview(revision.id, revision.reviewID, command.review)
    : await revisionWriter.postReview(revision.id, command.review);
  const approved = command.review.verdict === 'approve';
  await workItemWriter.addComment(
    item.id,
    `${approved ? 'Reviewer approved' : 'Reviewer requested changes on'} revision ${revision.id}:\n\n${command.review.summary}`,
  );
  // The item's new status first: the revision update must not look like a green revision still in review.
  return [
    await transitionWorkItem(item, approved ? 'approved' : command.needsChangesStatus, deps),
    buildRevisionChanged({ ...revision, reviewID }, revision),
  ];
}
