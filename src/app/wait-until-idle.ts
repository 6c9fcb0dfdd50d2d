import type { EngineState } from '../engine/state-store/index.ts';
import { buildMergeQueue } from '../engine/state-store/selectors/index.ts';
import type { ControlPlane } from './create-control-plane.ts';

const KEEP_ALIVE_MS = 60_000;
/**
 * Polls in a row an item may sit in review with red checks below the cap before idle names it as waiting
 * on a human: the engine sends such an item back for rework as soon as it applies what it knows, so one that
 * is still there after this many settled polls is stuck, not in progress.
 */
const RED_CHECKS_PATIENCE = 3;

/**
 * Resolves once the control plane has nothing left to do: no run active or queued, no checks pending, and a
 * fresh poll of every provider changes that — twice in a row, so work started by the last poll is seen. With
 * `maxCheckRounds`, an item in review with red checks and rounds left is work in progress too (for a few
 * polls: the engine sends it back for rework), never "waiting on a human". With `mergeQueue` (config
 * `merge.queue`), a queue head whose checks run — checks Flotilla does not run itself (GitHub's CI after a
 * branch update, GitHub's own merge queue) — is work in progress too: the queue merges it or sends it back.
 * Returns false when `shouldStop` says to give up first.
 *
 * A dispatch waiting for its retry backoff (or a slot) is pending work, not idle. The engine's timers are
 * unref'd (they never keep a process alive on their own), so while this waits it holds the event loop open
 * itself: otherwise a process whose only pending work is a backoff timer ends with "unsettled top-level
 * await" (exit 13) before the retry starts.
 */
export async function waitUntilIdle(
  controlPlane: Pick<ControlPlane, 'engine' | 'provider' | 'checksPending'>,
  shouldStop: () => boolean = () => false,
  { maxCheckRounds, mergeQueue }: { maxCheckRounds?: number; mergeQueue?: boolean } = {},
): Promise<boolean> {
  const { engine, provider } = controlPlane;
  const keepAlive = setInterval(() => {}, KEEP_ALIVE_MS);
  let redPolls = 0;
  try {
    for (let quiet = 0; quiet < 2; ) {
      if (shouldStop()) return false;
      await engine.whenQuiescent();
      await provider.runPendingChecks();
      await engine.pollNow();
      await engine.whenQuiescent();
      const state = engine.getState();
      const busy =
        Object.values(state.agentRuns).some(
          (run) => run.status === 'requested' || run.status === 'running',
        ) ||
        // Requests held by a paused budget wait for tomorrow or a raised cap: the summary names the pause.
        state.dispatchQueue.some((entry) => entry.reason !== 'budget') ||
        controlPlane.checksPending() ||
        (mergeQueue === true && buildMergeQueue(state).headState === 'checks-pending');
      // Red checks below the cap are rework about to start, not work waiting on a human.
      const reworkDue = maxCheckRounds !== undefined && hasReworkDue(state, maxCheckRounds);
      redPolls = reworkDue ? redPolls + 1 : 0;
      quiet = busy || (reworkDue && redPolls <= RED_CHECKS_PATIENCE) ? 0 : quiet + 1;
    }
    return !shouldStop();
  } finally {
    clearInterval(keepAlive);
  }
}

/** An item in review whose revision's checks are red and that has rework rounds left. */
function hasReworkDue(state: EngineState, maxCheckRounds: number): boolean {
  return Object.values(state.workItems).some((item) => {
    if (item.status !== 'review' || item.linkedRevision === null) return false;
    if (state.revisions[item.linkedRevision]?.pipeline?.status !== 'failure') return false;
    return (state.checkRounds[item.id] ?? 0) <= maxCheckRounds;
  });
}
