import type { EngineState } from '../../../src/engine/state-store/engine-state.ts';
import { buildImplementorRun } from '../shared/builders/build-implementor-run.ts';
import { buildPipeline } from '../shared/builders/build-pipeline.ts';
import { buildPlannerResult } from '../shared/builders/build-planner-result.ts';
import { buildPlannerRun } from '../shared/builders/build-planner-run.ts';
import { buildReviewerRun } from '../shared/builders/build-reviewer-run.ts';
import { buildRevision } from '../shared/builders/build-revision.ts';
import { buildSpec } from '../shared/builders/build-spec.ts';
import { buildTestState } from '../shared/builders/build-test-state.ts';
import { buildWorkItem } from '../shared/builders/build-work-item.ts';
import { SAMPLE_IDS as ID } from './sample-ids.ts';

/**
 * A catalogue state to which every event of `buildSampleEvents()` applies cleanly (no warnings). It holds one
 * requested and one running run per role, so it is not a plausible single moment (two planners are active),
 * but every lifecycle event has the run it needs.
 */
export function buildSampleState(): EngineState {
  const S = ID.sessions;
  return buildTestState({
    workItems: [
      buildWorkItem({ id: ID.readyItem, status: 'ready', priority: 'high' }),
      buildWorkItem({ id: ID.implementingItem, status: 'in-progress' }),
      buildWorkItem({ id: ID.implementorStartingItem, status: 'in-progress' }),
      buildWorkItem({ id: ID.reviewingItem, status: 'review', linkedRevision: ID.reviewingRevision }),
      buildWorkItem({
        id: ID.reviewerStartingItem,
        status: 'review',
        linkedRevision: ID.reviewerStartingRevision,
      }),
      buildWorkItem({
        id: ID.awaitingReviewItem,
        status: 'review',
        linkedRevision: ID.awaitingReviewRevision,
      }),
      buildWorkItem({ id: ID.blockerItem, status: 'approved' }),
      buildWorkItem({ id: ID.dependentItem, status: 'pending', blockedBy: [ID.blockerItem] }),
      buildWorkItem({ id: ID.blockedItem, status: 'blocked' }),
      buildWorkItem({ id: ID.approvedItem, status: 'approved', linkedRevision: ID.approvedRevision }),
      buildWorkItem({ id: ID.waitingItem, status: 'waiting-for-input' }),
    ],
    revisions: [
      buildRevision({ id: ID.reviewingRevision, workItemID: ID.reviewingItem }),
      buildRevision({ id: ID.reviewerStartingRevision, workItemID: ID.reviewerStartingItem }),
      buildRevision({
        id: ID.awaitingReviewRevision,
        workItemID: ID.awaitingReviewItem,
        pipeline: buildPipeline('pending'),
      }),
      buildRevision({ id: ID.approvedRevision, workItemID: ID.approvedItem }),
    ],
    specs: [buildSpec({ filePath: ID.specPath, blobSHA: ID.currentSpecSHA })],
    lastPlannedSHAs: { [ID.specPath]: ID.plannedSpecSHA },
    agentRuns: [
      buildPlannerRun({
        sessionID: S.requestedPlanner,
        status: 'requested',
        specPaths: [ID.specPath],
        specSHAs: { [ID.specPath]: ID.currentSpecSHA },
      }),
      buildPlannerRun({
        sessionID: S.runningPlanner,
        specPaths: [ID.specPath],
        specSHAs: { [ID.specPath]: ID.currentSpecSHA },
      }),
      buildImplementorRun({
        sessionID: S.requestedImplementor,
        status: 'requested',
        workItemID: ID.implementorStartingItem,
        branchName: `flotilla/${ID.implementorStartingItem}`,
      }),
      buildImplementorRun({
        sessionID: S.runningImplementor,
        workItemID: ID.implementingItem,
        branchName: `flotilla/${ID.implementingItem}`,
      }),
      buildReviewerRun({
        sessionID: S.requestedReviewer,
        status: 'requested',
        workItemID: ID.reviewerStartingItem,
        revisionID: ID.reviewerStartingRevision,
      }),
      buildReviewerRun({
        sessionID: S.runningReviewer,
        workItemID: ID.reviewingItem,
        revisionID: ID.reviewingRevision,
      }),
    ],
    dispatchQueue: [
      {
        key: `implementor:${ID.readyItem}`,
        command: { type: 'requestImplementorRun', workItemID: ID.readyItem },
        reason: 'capacity',
        notBefore: null,
        priority: 3,
        queuedAt: 500,
      },
    ],
    failures: {
      // An earlier planner run failed once (a user's userRequestedPlannerRun clears it).
      planner: {
        attempts: 1,
        lastReason: 'error',
        lastError: 'invalid structured output',
        lastFailedAt: 700,
        lastSessionID: 'planner-earlier',
      },
      [`implementor:${ID.blockedItem}`]: {
        attempts: 3,
        lastReason: 'timeout',
        lastError: 'no output for 900 s',
        lastFailedAt: 900,
        lastSessionID: 'implementor-earlier',
      },
      [`reviewer:${ID.awaitingReviewItem}`]: {
        attempts: 1,
        lastReason: 'error',
        lastError: 'invalid structured output',
        lastFailedAt: 800,
        lastSessionID: 'reviewer-earlier',
      },
    },
    reviewRounds: { [ID.reviewingItem]: 1, [ID.blockedItem]: 2 },
    // Pending on the approved spec as it is: the proposal events have one to decide.
    proposals: {
      'wi-proposal': {
        id: 'wi-proposal',
        kind: 'plan',
        status: 'pending',
        sessionID: 'planner-proposed',
        specSHAs: { [ID.specPath]: ID.currentSpecSHA },
        basePlannedSHAs: { [ID.specPath]: ID.plannedSpecSHA },
        result: buildPlannerResult(),
        revises: null,
        createdAt: 500,
        decidedAt: null,
        decidedBy: null,
        reason: null,
      },
    },
    waitingForInput: {
      [ID.waitingItem]: {
        workItemID: ID.waitingItem,
        role: 'implementor',
        sessionID: S.askedImplementor,
        sessionNumber: 1,
        revisionID: null,
        questions: ['Which database?'],
        session: {
          runtime: 'claude',
          agentSessionID: S.askedImplementor,
          worktree: {
            branchName: `agent/flotilla/${ID.waitingItem}`,
            path: `/repo/.worktrees/agent/flotilla/${ID.waitingItem}`,
            baseCommit: 'base-sha',
          },
          stateDir: `/repo/.flotilla/claude/runs/${S.askedImplementor}`,
        },
        askedAt: 900,
        answers: null,
      },
    },
  });
}
