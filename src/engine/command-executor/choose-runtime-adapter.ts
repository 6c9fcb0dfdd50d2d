import { messageOf } from '../../shared/message-of.ts';
import {
  AgentRunFailure,
  type AgentRunRequest,
  type RuntimeAdapter,
  type RuntimeAdapters,
  type RuntimeAvailability,
} from '../runtime-contract/runtime-contract.ts';
import type { EngineState } from '../state-store/engine-state.ts';

export type RuntimeChoice = { ok: true; adapter: RuntimeAdapter } | { ok: false; error: string };

/**
 * The runtime a run starts on: its work item's `runtime:<name>` label when it has one (implementor and
 * reviewer runs), else the role's configured runtime — provided it is available now. A refusal says which
 * runtime, what is missing and what to do; the engine fails the run with reason `unavailable` without
 * starting it (no attempt is counted; the handlers park the item as blocked with that text).
 */
export function chooseRuntimeAdapter(
  request: AgentRunRequest,
  state: EngineState,
  adapters: RuntimeAdapters,
): RuntimeChoice {
  const adapter = findRunAdapter(
    request.role,
    request.role === 'planner' ? null : request.workItemID,
    state,
    adapters,
  );
  if (adapter === null) {
    const names = adapters.choices?.names ?? namesOf(adapters);
    const label = request.role === 'planner' ? undefined : state.workItems[request.workItemID]?.runtime;
    return {
      ok: false,
      error:
        `the label runtime:${label} names no runtime; known: ${names.join(', ')}. ` +
        'Fix the label (flotilla work edit) or remove it to use the configured runtime.',
    };
  }
  const availability = checkAvailability(adapter);
  if (availability.available) return { ok: true, adapter };
  const name = adapter.runtime ?? request.role;
  return { ok: false, error: `runtime '${name}' is unavailable: ${availability.problems.join('; ')}` };
}

/**
 * The runtime a run of `role` for `workItemID` (null: the planner's) would use, available or not: the work
 * item's `runtime:<name>` label's, else the role's. Null when the label names no runtime. Provider limits
 * park — and the scheduler holds — by this runtime's name, the one its runs record.
 */
export function findRunAdapter(
  role: AgentRunRequest['role'],
  workItemID: string | null,
  state: EngineState,
  adapters: RuntimeAdapters,
): RuntimeAdapter | null {
  const label = workItemID === null ? undefined : state.workItems[workItemID]?.runtime;
  return label === undefined ? adapters[role] : findByName(adapters, label);
}

/** A runtime that refuses to start: what a run is handed when its runtime was refused. */
export function buildRefusingAdapter(error: string): RuntimeAdapter {
  return {
    startAgent: () => Promise.reject(new AgentRunFailure('unavailable', error)),
    cancelAgent: () => {},
  };
}

function findByName(adapters: RuntimeAdapters, name: string): RuntimeAdapter | null {
  if (adapters.choices !== undefined) return adapters.choices.get(name);
  // Without choices, only the runtimes the roles already run on can be named.
  return [adapters.planner, adapters.implementor, adapters.reviewer].find((a) => a.runtime === name) ?? null;
}

function namesOf(adapters: RuntimeAdapters): string[] {
  const names = [adapters.planner, adapters.implementor, adapters.reviewer].map((a) => a.runtime);
  return [...new Set(names.filter((name): name is string => name !== undefined))];
}

function checkAvailability(adapter: RuntimeAdapter): RuntimeAvailability {
  try {
    return adapter.isAvailable?.() ?? { available: true };
  } catch (error) {
    return { available: false, problems: [`its availability check failed: ${messageOf(error)}`] };
  }
}
