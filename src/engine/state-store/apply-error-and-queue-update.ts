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
