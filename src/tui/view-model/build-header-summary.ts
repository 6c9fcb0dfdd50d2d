import { type BudgetPause, describeParking, type PlannerRun } from '../../domain/index.ts';
import { type EngineState, getWorkWaitingOnHuman } from '../../engine/state-store/index.ts';

export interface HeaderSummary {
  planner:
    | { kind: 'running'; run: PlannerRun }
    | { kind: 'queued' }
    | { kind: 'failed'; run: PlannerRun }
    | { kind: 'idle'; unplannedSpecs: number };
  running: number;
  queued: number;
  maxAgents: number;
  /** Revisions whose checks are pending: running now, or waiting to run. */
  checksPending: number;
  /** Shown items by display status group, for the one-line overview. */
  openItems: number;
  /** Items the engine will not move until a human acts (needs-refinement, blocked, red checks). */
  waitingOnHuman: number;
  /** Plans waiting for `/accept` or `/reject` (`approval.plans: required`; at most one). */
  pendingProposals: number;
  /** Runtimes and accounts a provider limit holds back now: "claude parked until 14:05 (usage limit)". */
  parked: string[];
  /** Set while dispatch is paused because the day's or month's budget is spent (a banner). */
  budgetPause: BudgetPause | null;
  /** What queued runs wait for when the machine cannot hold one more agent (memory, CPU); else null. */
  resourceWait: string | null;
}

/** Local wall-clock HH:MM, as people read a reset time. */
const localTime = (epochMs: number) => {
  const date = new Date(epochMs);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
};

/** The header's facts: planner status, agent slots in use, how much is open. */
export function buildHeaderSummary(
  state: EngineState,
  scheduler: { active: number; queued: number; maxConcurrentAgents: number },
  now: number = Date.now(),
): HeaderSummary {
  let latestPlanner: PlannerRun | null = null;
  for (const run of Object.values(state.agentRuns)) {
    if (run.role !== 'planner') continue;
    if (latestPlanner === null || run.requestedAt >= latestPlanner.requestedAt) latestPlanner = run;
  }
  let planner: HeaderSummary['planner'];
  if (
    latestPlanner !== null &&
    (latestPlanner.status === 'requested' || latestPlanner.status === 'running')
  ) {
    planner = { kind: 'running', run: latestPlanner };
  } else if (state.dispatchQueue.some((entry) => entry.command.type === 'requestPlannerRun')) {
    planner = { kind: 'queued' };
  } else if (
    latestPlanner !== null &&
    (latestPlanner.status === 'failed' || latestPlanner.status === 'timed-out')
  ) {
    planner = { kind: 'failed', run: latestPlanner };
  } else {
    const unplannedSpecs = Object.values(state.specs).filter(
      (spec) =>
        spec.frontmatterStatus === 'approved' && state.lastPlannedSHAs[spec.filePath] !== spec.blobSHA,
    ).length;
    planner = { kind: 'idle', unplannedSpecs };
  }
  return {
    planner,
    running: scheduler.active,
    queued: scheduler.queued,
    maxAgents: scheduler.maxConcurrentAgents,
    checksPending: Object.values(state.revisions).filter(
      (revision) => revision.pipeline?.status === 'pending',
    ).length,
    openItems: Object.values(state.workItems).filter((item) => item.status !== 'closed').length,
    // The planner's own failure is shown in the planner part of the header.
    waitingOnHuman: getWorkWaitingOnHuman(state, { maxAttempts: Number.POSITIVE_INFINITY }).items.length,
    pendingProposals: Object.values(state.proposals).filter((proposal) => proposal.status === 'pending')
      .length,
    parked: Object.values(state.parkings)
      .filter((parking) => parking.until > now)
      .sort((a, b) => a.until - b.until)
      .map((parking) => describeParking(parking, localTime)),
    budgetPause: state.budgetPause ?? null,
    resourceWait: state.dispatchQueue.find((entry) => entry.reason === 'resources')?.detail ?? null,
  };
}
