import type { AgentRun } from '../../domain/index.ts';
import type { EngineState } from './engine-state.ts';
import { isPlainDataEqual } from './is-plain-data-equal.ts';
import { pruneFinishedRuns } from './prune-finished-runs.ts';

/**
 * What applyStateUpdate and its parts return, and the immutable record helpers they share: each returns the
 * very same object when nothing changes, so subscribers can compare by reference.
 */
export interface StateUpdate {
  state: EngineState;
  /** Events that could not be applied (unknown session, invalid run transition, …); the caller logs them. */
  warnings: string[];
}

// --- results ----------------------------------------------------------------------------------------

export function unchanged(state: EngineState): StateUpdate {
  return { state, warnings: [] };
}

export function rejected(state: EngineState, warning: string): StateUpdate {
  return { state, warnings: [warning] };
}

// --- immutable record helpers -----------------------------------------------------------------------

/** The record without `keys`; the same object when none of them is present. */
export function omitKeys<T>(record: Record<string, T>, keys: readonly string[]): Record<string, T> {
  if (!keys.some((key) => Object.hasOwn(record, key))) return record;
  const copy = { ...record };
  for (const key of keys) delete copy[key];
  return copy;
}

/** The record with `key` set; the same object when it already holds an equal value. */
export function setKey<T>(record: Record<string, T>, key: string, value: T): Record<string, T> {
  if (Object.hasOwn(record, key) && isPlainDataEqual(record[key], value)) return record;
  return { ...record, [key]: value };
}

export function withFailures(state: EngineState, failures: EngineState['failures']): EngineState {
  return failures === state.failures ? state : { ...state, failures };
}

export function putRun(state: EngineState, run: AgentRun): EngineState {
  return { ...state, agentRuns: { ...state.agentRuns, [run.sessionID]: run } };
}

/** Stores a run that just ended, dropping the oldest finished runs beyond the history bound. */
export function putFinishedRun(state: EngineState, run: AgentRun): EngineState {
  return { ...state, agentRuns: pruneFinishedRuns({ ...state.agentRuns, [run.sessionID]: run }) };
}
