import { createStore } from 'zustand/vanilla';
import type { EngineEvent, ReviewHistory, RevisionFile } from '../../../src/domain/index.ts';
import { isAgentRunActive } from '../../../src/domain/index.ts';
import type { EngineState } from '../../../src/engine/state-store/index.ts';
import {
  createOutputChannel,
  type OutputChannel,
} from '../../../src/runtimes/scripted/create-output-channel.ts';
import type { DashboardEngine } from '../../../src/tui/dashboard-deps.ts';

export interface FakeDashboardEngine extends DashboardEngine {
  /** Every event the dashboard enqueued, in order. */
  enqueued: EngineEvent[];
  refreshes: number;
  setState(update: (state: EngineState) => EngineState): void;
  /** Tells the `onEvent` listeners about `event` (as the engine does after applying one). */
  emit(event: EngineEvent): void;
  /** The output channel of a session (created on first use); `getAgentStream` reads it. */
  channel(sessionID: string): OutputChannel;
  bodies: Record<string, string>;
  files: Record<string, RevisionFile[]>;
  reviews: Record<string, ReviewHistory>;
}

/**
 * The engine surface the dashboard uses, on a real zustand store holding a real EngineState; actions are
 * recorded instead of processed (the real engine is exercised by its own tests and by the harness test).
 */
export function createFakeDashboardEngine(initial: EngineState): FakeDashboardEngine {
  const store = createStore<EngineState>(() => initial);
  const listeners = new Set<(event: EngineEvent, state: EngineState) => void>();
  const channels = new Map<string, OutputChannel>();
  const channel = (sessionID: string) => {
    let existing = channels.get(sessionID);
    if (!existing) {
      existing = createOutputChannel();
      channels.set(sessionID, existing);
    }
    return existing;
  };
  const engine: FakeDashboardEngine = {
    enqueued: [],
    refreshes: 0,
    bodies: {},
    files: {},
    reviews: {},
    getState: () => store.getState(),
    subscribe: (listener) => store.subscribe(listener),
    onEvent(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    enqueue(event) {
      engine.enqueued.push(event);
    },
    refresh() {
      engine.refreshes += 1;
    },
    schedulerStatus() {
      const state = store.getState();
      return {
        active: Object.values(state.agentRuns).filter(isAgentRunActive).length,
        queued: state.dispatchQueue.length,
        maxConcurrentAgents: 3,
      };
    },
    getWorkItemBody: async (id) => engine.bodies[id] ?? `Body of #${id}`,
    getRevisionFiles: async (id) => engine.files[id] ?? [],
    getAgentStream(sessionID) {
      const run = store.getState().agentRuns[sessionID];
      if (!run || !isAgentRunActive(run)) return null;
      return channel(sessionID).iterable;
    },
    setState(update) {
      store.setState(update(store.getState()), true);
    },
    emit(event) {
      for (const listener of listeners) listener(event, store.getState());
    },
    channel,
  };
  return engine;
}
