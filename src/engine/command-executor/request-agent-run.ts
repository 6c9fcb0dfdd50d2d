import type { AgentRunRequestCommand, EngineEvent } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';

/**
 * Hands a run request that passed the guards and the policy to the scheduler. It starts the run at once
 * (the engine's `startRun` emits the `*Requested` event, see `build-run-requested-event.ts`, and
 * `start-agent-async.ts` drives the session) or queues it and returns `dispatchQueued`.
 */
export function requestAgentRun(
  command: AgentRunRequestCommand,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'scheduler'>,
): EngineEvent[] {
  return deps.scheduler.submit(command, state);
}
