import type { AgentRunRequestCommand } from '../../../domain/index.ts';
import { buildDispatchKey } from '../dispatch-key.ts';
import type { EngineState, QueuedDispatch } from '../engine-state.ts';

/** The queue entry waiting for the same run as `command` (same dispatch key), or null. */
export function getQueuedDispatch(
  state: EngineState,
  command: AgentRunRequestCommand,
): QueuedDispatch | null {
  const key = buildDispatchKey(command);
  return state.dispatchQueue.find((entry) => entry.key === key) ?? null;
}
