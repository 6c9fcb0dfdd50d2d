import type { ControlPlane } from './create-control-plane.ts';

/**
 * Resolves once the control plane has nothing left to do: no run active or queued, no checks pending, and a
 * fresh poll of every provider changes that — twice in a row, so work started by the last poll is seen.
 * Returns false when `shouldStop` says to give up first.
 */
export async function waitUntilIdle(
  controlPlane: Pick<ControlPlane, 'engine' | 'provider' | 'checksPending'>,
  shouldStop: () => boolean = () => false,
): Promise<boolean> {
  const { engine, provider } = controlPlane;
  for (let quiet = 0; quiet < 2; ) {
    if (shouldStop()) return false;
    await engine.whenQuiescent();
    await provider.runPendingChecks();
    await engine.pollNow();
    await engine.whenQuiescent();
    const runs = Object.values(engine.getState().agentRuns);
    const busy =
      runs.some((run) => run.status === 'requested' || run.status === 'running') ||
      controlPlane.checksPending();
    quiet = busy ? 0 : quiet + 1;
  }
  return !shouldStop();
}
