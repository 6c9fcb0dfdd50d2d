import type { DiscardWaitingSession, EngineEvent } from '../../domain/index.ts';
import { type EngineState, failureKey } from '../state-store/engine-state.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';

/**
 * A waiting item's kept session will not be resumed (question timeout, or a human moved the item on): the
 * runtime removes its worktree and state, then the record goes (`waitingSessionDiscarded`), and an answered
 * wait's resume still queued with it (`dispatchDropped`).
 */
export async function discardWaitingSession(
  command: DiscardWaitingSession,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'discardSession' | 'clock' | 'scheduler'>,
): Promise<EngineEvent[]> {
  const waiting = state.waitingForInput[command.workItemID];
  if (waiting === undefined) return [];
  // An answered wait whose resume was admitted a moment ago (its *Requested not applied yet): that run
  // continues in the kept worktree, which must stay.
  const resumeKey =
    waiting.role === 'planner' ? failureKey('planner') : failureKey(waiting.role, waiting.workItemID);
  if (waiting.answers !== null && deps.scheduler.isKeyActive(resumeKey)) return [];
  await deps.discardSession(waiting.session);
  // An answered wait's resume still queued for a slot would only be dropped when one frees: drop it now,
  // so the queue (and the dashboard) no longer shows it.
  const dropped =
    waiting.answers === null ? [] : deps.scheduler.drop(resumeKey, 'its waiting session was discarded');
  return [
    ...dropped,
    { type: 'waitingSessionDiscarded', workItemID: command.workItemID, at: deps.clock.now() },
  ];
}
