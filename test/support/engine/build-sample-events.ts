import type { EngineEvent, EngineEventType } from '../../../src/domain/index.ts';
import { buildImplementorResult } from '../shared/builders/build-implementor-result.ts';
import { buildPipeline } from '../shared/builders/build-pipeline.ts';
import { buildPlannerResult } from '../shared/builders/build-planner-result.ts';
import { buildReviewerResult } from '../shared/builders/build-reviewer-result.ts';
import { buildRevision } from '../shared/builders/build-revision.ts';
import { buildRevisionFeedback } from '../shared/builders/build-revision-feedback.ts';
import { buildWorkItem } from '../shared/builders/build-work-item.ts';
import { SAMPLE_IDS as ID } from './sample-ids.ts';

/** One event of each type; the mapped type makes a new event type a compile error here until it has a sample. */
export type SampleEvents = { [Type in EngineEventType]: Extract<EngineEvent, { type: Type }> };

const USAGE = { costUSD: 0.12, inputTokens: 1200, outputTokens: 340, turns: 4 };

/**
 * One event of every type, each valid against `buildSampleState()` (see `SAMPLE_IDS` for the cast). Fresh
 * objects on every call, so tests may modify them.
 */
export function buildSampleEvents(): SampleEvents {
  const S = ID.sessions;
  const at = ID.at;
  return {
    workItemChanged: {
      type: 'workItemChanged',
      workItemID: ID.blockerItem,
      workItem: buildWorkItem({ id: ID.blockerItem, status: 'closed' }),
      oldStatus: 'approved',
      newStatus: 'closed',
    },
    revisionChanged: {
      type: 'revisionChanged',
      revisionID: ID.awaitingReviewRevision,
      workItemID: ID.awaitingReviewItem,
      revision: buildRevision({
        id: ID.awaitingReviewRevision,
        workItemID: ID.awaitingReviewItem,
        pipeline: buildPipeline('success'),
      }),
      oldPipelineStatus: 'pending',
      newPipelineStatus: 'success',
    },
    revisionFeedbackReceived: {
      type: 'revisionFeedbackReceived',
      workItemID: ID.awaitingReviewItem,
      revisionID: ID.awaitingReviewRevision,
      feedback: [buildRevisionFeedback({ commitSHA: `head-${ID.awaitingReviewRevision}` })],
      at,
    },
    revisionFeedbackAnswered: {
      type: 'revisionFeedbackAnswered',
      workItemID: ID.awaitingReviewItem,
      feedbackIDs: ['review-1'],
      at,
    },
    specChanged: {
      type: 'specChanged',
      filePath: ID.specPath,
      blobSHA: ID.editedSpecSHA,
      frontmatterStatus: 'approved',
      changeType: 'modified',
      commitSHA: 'commit-head',
    },

    plannerRequested: {
      type: 'plannerRequested',
      sessionID: S.newPlanner,
      at,
      specPaths: [ID.specPath],
      specSHAs: { [ID.specPath]: ID.currentSpecSHA },
    },
    plannerStarted: {
      type: 'plannerStarted',
      sessionID: S.requestedPlanner,
      logFilePath: `/logs/${S.requestedPlanner}.jsonl`,
      at,
    },
    plannerCompleted: {
      type: 'plannerCompleted',
      sessionID: S.runningPlanner,
      logFilePath: `/logs/${S.runningPlanner}.jsonl`,
      usage: USAGE,
      at,
      specPaths: [ID.specPath],
      result: buildPlannerResult(),
    },
    plannerFailed: {
      type: 'plannerFailed',
      sessionID: S.runningPlanner,
      logFilePath: `/logs/${S.runningPlanner}.jsonl`,
      usage: USAGE,
      at,
      reason: 'error',
      error: 'planner output failed validation',
      specPaths: [ID.specPath],
    },

    implementorRequested: {
      type: 'implementorRequested',
      sessionID: S.newImplementor,
      at,
      workItemID: ID.readyItem,
      branchName: `flotilla/${ID.readyItem}`,
    },
    implementorStarted: {
      type: 'implementorStarted',
      sessionID: S.requestedImplementor,
      logFilePath: `/logs/${S.requestedImplementor}.jsonl`,
      at,
    },
    implementorCompleted: {
      type: 'implementorCompleted',
      sessionID: S.runningImplementor,
      logFilePath: `/logs/${S.runningImplementor}.jsonl`,
      usage: USAGE,
      at,
      workItemID: ID.implementingItem,
      branchName: `flotilla/${ID.implementingItem}`,
      result: buildImplementorResult(),
    },
    agentAskedQuestions: {
      type: 'agentAskedQuestions',
      sessionID: S.runningImplementor,
      logFilePath: `/logs/${S.runningImplementor}.jsonl`,
      usage: USAGE,
      at,
      role: 'implementor',
      workItemID: ID.implementingItem,
      revisionID: null,
      questions: ['Which database should the cache use?'],
      session: {
        runtime: 'claude',
        agentSessionID: S.runningImplementor,
        worktree: {
          branchName: `agent/flotilla/${ID.implementingItem}`,
          path: `/repo/.worktrees/agent/flotilla/${ID.implementingItem}`,
          baseCommit: 'base-sha',
        },
        stateDir: `/repo/.flotilla/claude/runs/${S.runningImplementor}`,
      },
    },
    questionsAnswered: {
      type: 'questionsAnswered',
      workItemID: ID.waitingItem,
      answers: 'Use SQLite.',
      source: 'user',
    },
    questionsTimedOut: {
      type: 'questionsTimedOut',
      workItemID: ID.waitingItem,
      sessionID: S.askedImplementor,
      at,
    },
    waitingSessionDiscarded: { type: 'waitingSessionDiscarded', workItemID: ID.waitingItem, at },
    implementorFailed: {
      type: 'implementorFailed',
      sessionID: S.runningImplementor,
      logFilePath: `/logs/${S.runningImplementor}.jsonl`,
      usage: USAGE,
      at,
      reason: 'error',
      error: 'agent exited with code 1',
      workItemID: ID.implementingItem,
      branchName: `flotilla/${ID.implementingItem}`,
    },

    reviewerRequested: {
      type: 'reviewerRequested',
      sessionID: S.newReviewer,
      at,
      workItemID: ID.awaitingReviewItem,
      revisionID: ID.awaitingReviewRevision,
    },
    reviewerStarted: {
      type: 'reviewerStarted',
      sessionID: S.requestedReviewer,
      logFilePath: `/logs/${S.requestedReviewer}.jsonl`,
      at,
    },
    reviewerCompleted: {
      type: 'reviewerCompleted',
      sessionID: S.runningReviewer,
      logFilePath: `/logs/${S.runningReviewer}.jsonl`,
      usage: USAGE,
      at,
      workItemID: ID.reviewingItem,
      revisionID: ID.reviewingRevision,
      result: buildReviewerResult('needs-changes'),
    },
    reviewerFailed: {
      type: 'reviewerFailed',
      sessionID: S.runningReviewer,
      logFilePath: `/logs/${S.runningReviewer}.jsonl`,
      usage: USAGE,
      at,
      reason: 'error',
      error: 'reviewer output failed validation',
      workItemID: ID.reviewingItem,
      revisionID: ID.reviewingRevision,
    },

    commandRejected: {
      type: 'commandRejected',
      command: { type: 'requestImplementorRun', workItemID: ID.blockedItem },
      reason: 'work item is not ready',
      kind: 'invalid',
      at,
    },
    commandFailed: {
      type: 'commandFailed',
      command: {
        type: 'transitionWorkItemStatus',
        workItemID: ID.dependentItem,
        newStatus: 'ready',
        cause: 'dependency-resolved',
      },
      error: 'provider unavailable',
      at,
    },
    mergeQueueStepped: {
      type: 'mergeQueueStepped',
      workItemID: ID.dependentItem,
      revisionID: 'rev-1',
      outcome: 'conflict',
      previousHeadSHA: 'a'.repeat(40),
      headSHA: 'a'.repeat(40),
      conflict: {
        revisionID: 'rev-1',
        headSHA: 'a'.repeat(40),
        baseSHA: 'b'.repeat(40),
        files: [{ path: 'src/a.ts', hunks: ['<<<<<<< main\nx\n=======\ny\n>>>>>>> flotilla/1\n'] }],
      },
      at,
    },
    dispatchQueued: {
      type: 'dispatchQueued',
      command: {
        type: 'requestReviewerRun',
        workItemID: ID.awaitingReviewItem,
        revisionID: ID.awaitingReviewRevision,
      },
      reason: 'backoff',
      notBefore: at + 30_000,
      priority: 2,
      at,
    },
    dispatchDropped: {
      type: 'dispatchDropped',
      command: { type: 'requestImplementorRun', workItemID: ID.readyItem },
      reason: 'work item is no longer ready',
      at,
    },
    agentUsageReported: {
      type: 'agentUsageReported',
      sessionID: S.runningImplementor,
      usage: USAGE,
      model: 'claude-sonnet-4-5',
      at,
    },
    agentNoted: {
      type: 'agentNoted',
      sessionID: S.runningImplementor,
      role: 'implementor',
      workItemID: ID.readyItem,
      runtime: 'claude',
      note: { kind: 'summary', text: 'Writing the greeting test' },
      at,
    },
    conversationCreated: {
      type: 'conversationCreated',
      conversation: {
        id: 'conv-1',
        from: { sessionID: S.runningImplementor, role: 'implementor', workItemID: ID.readyItem },
        target: ID.reviewingItem,
        to: { sessionID: S.runningReviewer, role: 'reviewer', workItemID: ID.reviewingItem },
        question: 'Which module owns the greeting?',
        status: 'open',
        answer: null,
        timeoutSeconds: 300,
        createdAt: at,
        answeredAt: null,
      },
      at,
    },
    conversationAnswered: {
      type: 'conversationAnswered',
      conversationID: 'conv-1',
      status: 'answered',
      answer: 'src/greeting.ts',
      at,
    },
    workItemOverBudget: {
      type: 'workItemOverBudget',
      workItemID: ID.readyItem,
      scope: 'item',
      role: 'implementor',
      spentUSD: 4.5,
      capUSD: 5,
      estimateUSD: 0.8,
      at,
    },
    budgetPauseChanged: {
      type: 'budgetPauseChanged',
      pause: { period: 'day', spentUSD: 20.4, capUSD: 20, resumesAt: at + 3_600_000, since: at },
      at,
    },
    errorRecorded: {
      type: 'errorRecorded',
      source: 'work-item-poller',
      message: 'listWorkItems failed: connection reset',
      at,
    },

    userRequestedImplementorRun: { type: 'userRequestedImplementorRun', workItemID: ID.blockedItem },
    userRequestedReviewerRun: { type: 'userRequestedReviewerRun', workItemID: ID.awaitingReviewItem },
    userCancelledRun: { type: 'userCancelledRun', sessionID: S.runningImplementor },
    userTransitionedStatus: {
      type: 'userTransitionedStatus',
      workItemID: ID.blockedItem,
      newStatus: 'pending',
    },
    userRequestedMerge: { type: 'userRequestedMerge', workItemID: ID.approvedItem },
    userRequestedPlannerRun: { type: 'userRequestedPlannerRun' },
    accountSwitched: {
      type: 'accountSwitched',
      sessionID: 'session-impl',
      runtime: 'claude',
      from: 'work',
      to: 'personal',
      until: 2_000,
      at: 1_000,
    },
    proposalCreated: {
      type: 'proposalCreated',
      proposal: {
        id: 'wi-proposal',
        kind: 'plan',
        status: 'pending',
        sessionID: 'session-planner-done',
        specSHAs: { 'docs/specs/a.md': 'sha-a' },
        basePlannedSHAs: {},
        result: buildPlannerResult(),
        revises: null,
        createdAt: at,
        decidedAt: null,
        decidedBy: null,
        reason: null,
      },
      at,
    },
    proposalDecided: {
      type: 'proposalDecided',
      proposalID: 'wi-proposal',
      decision: 'reject',
      reason: 'too coarse',
      author: 'ada',
      source: 'tracker',
      at,
    },
    planApplied: {
      type: 'planApplied',
      sessionID: 'session-planner',
      summary: 'Two steps: the store, then the API on it',
      created: [{ workItemID: 'wi-new', title: 'The store' }],
      updatedIDs: [],
      at,
    },
    modeResultApplied: {
      type: 'modeResultApplied',
      workItemID: 'wi-bug',
      sessionID: 'session-investigate',
      report: {
        mode: 'investigate',
        summary: 'The total is off by one',
        rootCause: 'sum() starts at 1',
        evidence: ['sum([]) returns 1'],
        files: ['src/sum.ts'],
        fixes: [{ tempID: 'fix', title: 'Start sum at 0', body: 'Fix it', labels: [], blockedBy: [] }],
      },
      createdIDs: ['wi-fix'],
      at,
    },
    proposalStale: {
      type: 'proposalStale',
      proposalID: 'wi-proposal',
      reason: 'a spec changed',
      restorePlanned: true,
      at,
    },
  };
}

/** The sample events as a list, in declaration order (handy for `it.each`). */
export function buildSampleEventList(): EngineEvent[] {
  return Object.values(buildSampleEvents());
}
