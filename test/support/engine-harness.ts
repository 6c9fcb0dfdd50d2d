import type { AgentRun, EngineEvent } from '../../src/domain/index.ts';
import { createEngine, type Engine } from '../../src/engine/create-engine.ts';
import type { EngineConfig } from '../../src/engine/engine-config.ts';
import type { EngineState } from '../../src/engine/state-store/engine-state.ts';
import { createRecordingLogger } from '../../src/logging/logger.ts';
import {
  createScriptedAdapter,
  type ScriptedAdapter,
  type ScriptedAdapterOptions,
} from '../../src/runtimes/scripted/create-scripted-adapter.ts';
import type { ScriptedAdapterScript } from '../../src/runtimes/scripted/scripted-run.ts';
import {
  createInMemoryProvider,
  type InMemoryProvider,
  type InMemoryProviderOptions,
} from './in-memory-provider/create-in-memory-provider.ts';

export interface EngineHarness {
  engine: Engine;
  provider: InMemoryProvider;
  adapter: ScriptedAdapter;
  logger: ReturnType<typeof createRecordingLogger>;
  /** Every event the loop processed, in order. */
  events: EngineEvent[];
  /** Polls until the predicate holds on the engine state (or throws after `timeoutMs`). */
  waitFor(predicate: (state: EngineState) => boolean, what: string, timeoutMs?: number): Promise<EngineState>;
  /** Polls the providers and waits until nothing is queued, processing or running. */
  settle(): Promise<void>;
  runs(role?: AgentRun['role']): AgentRun[];
}

/**
 * An engine wired to the in-memory provider and the scripted adapter. Poll timers are effectively off:
 * tests drive polls with `settle()` / `engine.pollNow()`.
 */
export function createEngineHarness(
  options: {
    script?: ScriptedAdapterScript;
    adapterOptions?: ScriptedAdapterOptions;
    providerOptions?: InMemoryProviderOptions;
    /** An existing tracker (a restart over the same items); default: a new one from `providerOptions`. */
    provider?: InMemoryProvider;
    config?: Partial<EngineConfig>;
  } = {},
): EngineHarness {
  const provider = options.provider ?? createInMemoryProvider(options.providerOptions);
  const adapter = createScriptedAdapter(options.script ?? {}, options.adapterOptions);
  const logger = createRecordingLogger();
  const engine = createEngine({
    provider,
    createRuntimeAdapters: () => ({ planner: adapter, implementor: adapter, reviewer: adapter }),
    logger,
    pollIntervals: { workItems: 3600, revisions: 3600, specs: 3600 },
    shutdownTimeout: 5,
    ...options.config,
    scheduler: { retryBaseDelay: 0.01, retryMaxDelay: 0.05, ...options.config?.scheduler },
  });
  const events: EngineEvent[] = [];
  engine.onEvent((event) => events.push(event));

  return {
    engine,
    provider,
    adapter,
    logger,
    events,
    async waitFor(predicate, what, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const state = engine.getState();
        if (predicate(state)) return state;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error(`timed out waiting for: ${what}`);
    },
    async settle() {
      for (let round = 0; round < 5; round += 1) {
        await engine.pollNow();
        await engine.whenQuiescent();
      }
    },
    runs(role) {
      return Object.values(engine.getState().agentRuns)
        .filter((run) => role === undefined || run.role === role)
        .sort((a, b) => a.requestedAt - b.requestedAt);
    },
  };
}
