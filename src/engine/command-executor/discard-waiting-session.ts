import type { DiscardWaitingSession, EngineEvent } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';

/**
 * A waiting item's kept session will not be resumed (question timeout, or a human moved the item on): the
 * runtime removes its worktree and state, then the record goes (`waitingSessionDiscarded`).
 */
export async function discardWaitingSession(
  command: DiscardWaitingSession,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'discardSession' | 'clock'>,
): Promise<EngineEvent[]> {
  const waiting = state.waitingForInput[command.workItemID];
  if (waiting === undefined) return [];
  await deps.discardSession(waiting.session);
  return [{ type: 'waitingSessionDiscarded', workItemID: command.workItemID, at: deps.clock.now() }];
}
