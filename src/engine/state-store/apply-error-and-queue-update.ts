import type {
  CommandFailed,
  CommandRejected,
  DispatchDropped,
  DispatchQueued,
  ErrorEntry,
  ErrorRecorded,
} from '../../domain/index.ts';
import { buildDispatchKey } from './dispatch-key.ts';
import { type EngineState, MAX_ERROR_ENTRIES, type QueuedDispatch } from './engine-state.ts';
import { isPlainDataEqual } from './is-plain-data-equal.ts';

type ErrorOrQueueEvent = CommandRejected | CommandFailed | ErrorRecorded | DispatchQueued | DispatchDropped;

/**
 * The errors and dispatch-queue part of applyStateUpdate: rejected and failed commands and recorded errors join
 * the bounded error list; a queued dispatch is added or updated, a dropped one removed.
 */
export function applyErrorAndQueueUpdate(state: EngineState, event: ErrorOrQueueEvent): EngineState {
  switch (event.type) {
    case 'commandRejected':
      // A duplicate request is the normal outcome of a burst of identical triggers, not an error.
      if (event.kind === 'duplicate') return state;
      return appendError(state, {
        at: event.at,
        source: 'command-executor',
        message: `${event.command.type} rejected (${event.kind}): ${event.reason}`,
        event,
      });
    case 'commandFailed':
      return appendError(state, {
        at: event.at,
        source: 'command-executor',
        message: `${event.command.type} failed: ${event.error}`,
        event,
      });
    case 'errorRecorded':
      return appendError(state, { at: event.at, source: event.source, message: event.message, event });

    case 'dispatchQueued':
      return upsertQueuedDispatch(state, event);
    case 'dispatchDropped':
      return dropQueuedDispatch(state, event);
  }
}

function appendError(state: EngineState, entry: ErrorEntry): EngineState {
  const errors = [...state.errors, entry];
  return { ...state, errors: errors.length > MAX_ERROR_ENTRIES ? errors.slice(-MAX_ERROR_ENTRIES) : errors };
}

function upsertQueuedDispatch(state: EngineState, event: DispatchQueued): EngineState {
  const key = buildDispatchKey(event.command);
  if (startedSince(state, key, event.at)) return state;
  const index = state.dispatchQueue.findIndex((queued) => queued.key === key);
  const existing = index === -1 ? undefined : state.dispatchQueue[index];
  const entry: QueuedDispatch = {
    key,
    command: event.command,
    reason: event.reason,
    ...(event.detail !== undefined && { detail: event.detail }),
    notBefore: event.notBefore,
    priority: event.priority,
    // Re-queuing (e.g. capacity → backoff) keeps the original age, so the entry keeps its place in line.
    queuedAt: existing?.queuedAt ?? event.at,
  };
  if (existing === undefined) return { ...state, dispatchQueue: [...state.dispatchQueue, entry] };
  if (isPlainDataEqual(existing, entry)) return state;
  return { ...state, dispatchQueue: state.dispatchQueue.map((queued, i) => (i === index ? entry : queued)) };
}

function dropQueuedDispatch(state: EngineState, event: DispatchDropped): EngineState {
  const key = buildDispatchKey(event.command);
  if (!state.dispatchQueue.some((entry) => entry.key === key)) return state;
  return { ...state, dispatchQueue: state.dispatchQueue.filter((entry) => entry.key !== key) };
}

/**
 * A run for this key was requested at or after the queueing: the queueing is stale. The scheduler's events reach
 * the store out of order when its timer queues a request on the loop's tail and a batch in progress then starts
 * it (a batch's results go to the loop's front): without this the entry stayed in the state forever, and
 * `flotilla run --until-idle` never found the engine idle.
 */
function startedSince(state: EngineState, key: string, at: number): boolean {
  return Object.values(state.agentRuns).some(
    (run) =>
      // In the same millisecond only a run still active counts: a frozen clock's failed run re-queues at once.
      (run.requestedAt > at || (run.requestedAt === at && run.endedAt === null)) &&
      buildDispatchKey(run) === key,
  );
}
