import type { AgentRunRequestCommand, EngineEvent } from '../../domain/index.ts';
import type { EngineState } from '../state-store/engine-state.ts';
import type { CommandExecutorDeps } from './command-executor-deps.ts';

/**
 * Hands a run request that passed the guards and the policy to the scheduler, with the files the run is
 * expected to change (so it never runs beside an agent changing the same ones). It starts the run at once
 * (the engine's `startRun` emits the `*Requested` event, see `build-run-requested-event.ts`, and
 * `start-agent-async.ts` drives the session) or queues it and returns `dispatchQueued`.
 */
export async function requestAgentRun(
  command: AgentRunRequestCommand,
  state: EngineState,
  deps: Pick<CommandExecutorDeps, 'scheduler' | 'estimateFiles'>,
): Promise<EngineEvent[]> {
  const files = (await deps.estimateFiles?.(command, state)) ?? null;
  return deps.scheduler.submit(command, state, files);
}
