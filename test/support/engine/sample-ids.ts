/** Names of everything in the sample world (`buildSampleState` + `buildSampleEvents`). */
export const SAMPLE_IDS = {
  specPath: 'docs/specs/alpha.md',
  /** What `lastPlannedSHAs` holds for the spec. */
  plannedSpecSHA: 'sha-alpha-1',
  /** The spec's blob SHA in the store: it differs from the planned one, so the spec needs planning. */
  currentSpecSHA: 'sha-alpha-2',
  /** The blob SHA the sample specChanged reports. */
  editedSpecSHA: 'sha-alpha-3',

  /** ready task with a queued implementor request; target of the sample implementorRequested. */
  readyItem: 'wi-ready',
  /** in-progress, implementor running (sample implementorCompleted/Failed, userCancelledRun). */
  implementingItem: 'wi-implementing',
  /** in-progress, implementor requested but not started (sample implementorStarted). */
  implementorStartingItem: 'wi-implementor-starting',
  /** review, reviewer running on its revision (sample reviewerCompleted/Failed). */
  reviewingItem: 'wi-reviewing',
  /** review, reviewer requested but not started (sample reviewerStarted). */
  reviewerStartingItem: 'wi-reviewer-starting',
  /** review, no reviewer yet, pipeline pending; the sample revisionChanged turns it green. */
  awaitingReviewItem: 'wi-awaiting-review',
  /** approved; the sample workItemChanged closes it. */
  blockerItem: 'wi-blocker',
  /** pending task blocked only by the blocker. */
  dependentItem: 'wi-dependent',
  /** blocked after exhausting its implementor attempts (user dispatch and transition target). */
  blockedItem: 'wi-blocked',
  /** waiting-for-input: its implementor asked questions (sample questionsAnswered, waitingSessionDiscarded). */
  waitingItem: 'wi-waiting',
  /** approved with an open revision, waiting for a human to merge it (sample userRequestedMerge). */
  approvedItem: 'wi-approved',

  reviewingRevision: 'rev-reviewing',
  reviewerStartingRevision: 'rev-reviewer-starting',
  awaitingReviewRevision: 'rev-awaiting-review',
  approvedRevision: 'rev-approved',

  sessions: {
    newPlanner: 'planner-new',
    requestedPlanner: 'planner-requested',
    runningPlanner: 'planner-running',
    newImplementor: 'implementor-new',
    requestedImplementor: 'implementor-requested',
    runningImplementor: 'implementor-running',
    newReviewer: 'reviewer-new',
    requestedReviewer: 'reviewer-requested',
    runningReviewer: 'reviewer-running',
    askedImplementor: 'implementor-asked',
  },

  /** Epoch ms of every sample event (state timestamps are earlier). */
  at: 10_000,
} as const;
