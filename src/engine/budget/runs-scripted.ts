import { type AgentRole, type AgentRunRequestCommand, SCRIPTED_RUNTIME } from '../../domain/index.ts';
import { findRunAdapter } from '../command-executor/choose-runtime-adapter.ts';
import type { RuntimeAdapters } from '../runtime-contract/runtime-contract.ts';
import { dispatchWorkItemID } from '../scheduler/dispatch-work-item-id.ts';
import type { EngineState } from '../state-store/engine-state.ts';

/**
 * Whether the run `command` asks for would run on the scripted runtime (the item's `runtime:` label's, else
 * the role's). Its costs are made up by the scripted model server, so budgets neither count nor cap it: the
 * one rule `flotilla budget`, the dashboard header and `flotilla stats` follow too.
 */
export function runsScripted(
  command: AgentRunRequestCommand,
  state: EngineState,
  adapters: RuntimeAdapters,
): boolean {
  const role: AgentRole =
    command.type === 'requestPlannerRun'
      ? 'planner'
      : command.type === 'requestImplementorRun'
        ? 'implementor'
        : 'reviewer';
  return findRunAdapter(role, dispatchWorkItemID(command), state, adapters)?.runtime === SCRIPTED_RUNTIME;
}
