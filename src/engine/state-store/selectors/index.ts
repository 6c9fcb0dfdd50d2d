export {
  buildMergeQueue,
  type MergeQueueEntry,
  type MergeQueueHeadState,
  type MergeQueueView,
} from './build-merge-queue.ts';
export { countActiveRuns } from './count-active-runs.ts';
export { findNextAvailableAccount } from './find-next-available-account.ts';
export { findRuntimeParking } from './find-runtime-parking.ts';
export { getActiveAgentRun } from './get-active-agent-run.ts';
export { getActivePlannerRun } from './get-active-planner-run.ts';
export { getAgentRun } from './get-agent-run.ts';
export { getApprovedSpecSHAs } from './get-approved-spec-shas.ts';
export { getCheckRounds } from './get-check-rounds.ts';
export { getFailureRecord } from './get-failure-record.ts';
export { getLatestRunForWorkItem } from './get-latest-run-for-work-item.ts';
export { getQueuedDispatch } from './get-queued-dispatch.ts';
export { getReviewRounds } from './get-review-rounds.ts';
export { getRevisionsByPipelineStatus } from './get-revisions-by-pipeline-status.ts';
export { getSpecsRequiringPlanning } from './get-specs-requiring-planning.ts';
export { getStackBase, type StackBase, type StackedBlocker } from './get-stack-base.ts';
export { getWorkItemWithRevision, type WorkItemWithRevision } from './get-work-item-with-revision.ts';
export { getWorkItemsByStatus } from './get-work-items-by-status.ts';
export { getWorkItemsDependingOn } from './get-work-items-depending-on.ts';
export {
  getWorkWaitingOnHuman,
  type WaitingItem,
  type WaitingReason,
  type WorkWaitingOnHuman,
} from './get-work-waiting-on-human.ts';
export { isAgentRunningForWorkItem } from './is-agent-running-for-work-item.ts';
export { isWorkItemUnblocked } from './is-work-item-unblocked.ts';
