import type { EngineCommand, EngineEvent } from '../../../src/domain/index.ts';
import type { Handler, HandlerConfig } from '../../../src/engine/handlers/handler.ts';
import { applyStateUpdate } from '../../../src/engine/state-store/apply-state-update.ts';
import type { EngineState } from '../../../src/engine/state-store/engine-state.ts';
import { deepFreeze } from '../shared/deep-freeze.ts';
import { buildHandlerConfig } from './build-handler-config.ts';

/**
 * What the loop does for one event, minus the executor: apply the event, then run the handler on the updated
 * snapshot. Inputs are frozen, so a handler or state update that mutates them fails the test.
 */
export function runHandlerAfterUpdate(
  handler: Handler,
  event: EngineEvent,
  before: EngineState,
  config: HandlerConfig = buildHandlerConfig(),
): EngineCommand[] {
  const frozenEvent = deepFreeze(event);
  const { state } = applyStateUpdate(deepFreeze(before), frozenEvent);
  return handler(frozenEvent, deepFreeze(state), config);
}
