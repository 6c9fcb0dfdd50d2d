import { CliError } from './cli-error.ts';
import { isControlPlaneRunning } from './is-control-plane-running.ts';
import type { CliContext } from './open-cli-context.ts';

/**
 * Refuses (exit 1) when a running `flotilla run` has an agent on the item: its result would undo what the
 * human is about to write (a reviewer's verdict overwrites the status; an implementor's revision reopens a
 * closed item). A run a killed control plane left `running` does not count: nothing will report it.
 */
export function requireNoActiveAgent(
  { history, paths }: Pick<CliContext, 'history'> & { paths: Pick<CliContext['paths'], 'stateDir'> },
  workItemID: string,
  what: string,
): void {
  const active = history
    .listRuns({ workItemID, limit: 5 })
    .find((run) => run.status === 'requested' || run.status === 'running');
  if (active === undefined || !isControlPlaneRunning(paths.stateDir)) return;
  throw new CliError(
    `a ${active.role} is running on #${workItemID} (session ${active.sessionID.slice(0, 8)}); its result would undo ${what}. Wait for it, or cancel it (x in the dashboard), then retry`,
    { exitCode: 1 },
  );
}
