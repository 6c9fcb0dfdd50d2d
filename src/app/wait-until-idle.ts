import type { ControlPlane } from './create-control-plane.ts';

const KEEP_ALIVE_MS = 60_000;

/**
 * Resolves once the control plane has nothing left to do: no run active or queued, no checks pending, and a
 * fresh poll of every provider changes that — twice in a row, so work started by the last poll is seen.
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
): Promise<boolean> {
  const { engine, provider } = controlPlane;
  const keepAlive = setInterval(() => {}, KEEP_ALIVE_MS);
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
        controlPlane.checksPending();
      quiet = busy ? 0 : quiet + 1;
    }
    return !shouldStop();
  } finally {
    clearInterval(keepAlive);
  }
}
