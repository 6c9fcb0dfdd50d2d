import {
  type AgentRun,
  describeChecksOutcome,
  describeReviewVerdict,
  isScriptedRun,
  revisionName,
} from '../../domain/index.ts';
import type { EngineState } from '../../engine/state-store/engine-state.ts';
import type { ModelServer } from '../../model-server/create-model-server.ts';
import type { ControlPlane } from '../create-control-plane.ts';
import { createSpendTally } from '../progress/create-spend-tally.ts';
import type { DemoOutcome } from './demo-options.ts';

export interface DemoSummaryInput {
  controlPlane: ControlPlane;
  repoRoot: string;
  server: ModelServer | null;
  print: (line: string) => void;
  /** Whether the transcripts are kept (their paths are printed then). */
  keep: boolean;
  /** Whether a watcher (the dashboard) ran the demo; otherwise it ran until idle or `timedOut`. */
  watched: boolean;
  timedOut: boolean;
  startedAt: number;
}

/** Prints the demo's summary; the outcome, and the revision branches for the closing line. */
export async function summarizeDemo(
  input: DemoSummaryInput,
): Promise<{ outcome: DemoOutcome; branches: string[] }> {
  const { controlPlane, print } = input;
  const state = controlPlane.engine.getState();
  const runs = Object.values(state.agentRuns).sort((a, b) => a.requestedAt - b.requestedAt);
  const items = Object.values(state.workItems).sort((a, b) => Number(a.id) - Number(b.id));
  print('');
  print(`Summary (${((Date.now() - input.startedAt) / 1000).toFixed(1)}s)`);
  print('  work items:');
  for (const item of items)
    print(
      `    #${item.id} ${item.status.padEnd(16)} ${item.title}${await describeRevisionOf(controlPlane, state, item.linkedRevision)}`,
    );
  print('  agent runs:');
  for (const run of runs) printRun(run, input);
  const spend = createSpendTally();
  for (const run of runs) spend.addRun(run);
  const total = spend.describe();
  if (total !== null) print(`  total: ${total}`);
  const problems = input.server?.report().problems ?? [];
  if (problems.length > 0) print(`  model server: ${problems.join('; ')}`);
  const approved = items.filter((item) => item.status === 'approved').length;
  // Watched, the human may have merged, cancelled or re-dispatched: only errors make it a failure.
  const ok = input.watched
    ? state.errors.length === 0
    : !input.timedOut && approved === items.length && items.length === 2 && state.errors.length === 0;
  if (state.errors.length > 0) print(`  errors: ${state.errors.map((error) => error.message).join('; ')}`);
  return {
    outcome: { ok, repoRoot: input.repoRoot, runs, approved, modelServerProblems: problems },
    branches: items.map((item) => `flotilla/${item.id}`),
  };
}

/** An item's summary line's tail: its revision, branch, head, checks and reviews; empty without one. */
async function describeRevisionOf(
  controlPlane: ControlPlane,
  state: EngineState,
  revisionID: string | null | undefined,
): Promise<string> {
  const revision = revisionID ? state.revisions[revisionID] : undefined;
  if (!revision) return '';
  const reviews = (await controlPlane.provider.revisionReader.getReviewHistory(revision.id)).reviews
    .map((review) => describeReviewVerdict(review).said)
    .join(', ');
  const checks = `checks ${revision.pipeline ? describeChecksOutcome(revision.pipeline.status) : 'unknown'}`;
  return `  — revision ${revisionName(revision)} on branch ${revision.headRef} @ ${revision.headSHA.slice(0, 8)} (${checks}${reviews ? `; reviews: ${reviews}` : ''})`;
}

/** One agent run's summary line (and its transcript's path when kept). */
function printRun(run: AgentRun, { print, keep }: DemoSummaryInput): void {
  const subject = run.role === 'planner' ? run.specPaths.join(', ') : `#${run.workItemID}`;
  const duration = run.endedAt ? `${((run.endedAt - run.requestedAt) / 1000).toFixed(1)}s` : '—';
  // The scripted model server makes costs up: marked, never counted with real spend.
  const cost =
    run.usage?.costUSD != null
      ? `$${run.usage.costUSD.toFixed(4)}${isScriptedRun(run) ? ' (scripted)' : ''}`
      : '';
  print(
    `    ${run.role.padEnd(11)} ${subject.padEnd(24)} ${run.status.padEnd(10)} ${duration.padStart(6)} ${cost}`,
  );
  if (run.logFilePath && keep) print(`      transcript: ${run.logFilePath}`);
}
