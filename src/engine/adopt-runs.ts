import type { AgentRun, AgentRunStatus } from '../domain/index.ts';
import type {
  AgentRunRequest,
  AgentStartParams,
  RuntimeAdapter,
  RuntimeAdapters,
} from './runtime-contract/index.ts';
import { buildDispatchKey } from './state-store/dispatch-key.ts';
import type { EngineState } from './state-store/engine-state.ts';

/**
 * A run a previous process started that goes on without it (cluster mode, issue #33: its durable workflow
 * runs on a worker), handed to a new engine to wait on instead of dispatching its item again
 * (`EngineConfig.adoptedRuns`). `params` are the ones it was started with, prompt included.
 */
export interface AdoptedRun {
  run: AgentRun;
  params: AgentStartParams;
}

/** What adopting needs of the engine: its scheduler's slots, the budget's tracking and the run's start. */
export interface AdoptRunsDeps {
  adapters: RuntimeAdapters;
  /** Takes a slot for the run (the scheduler's `adopt`), so nothing else is dispatched for its key. */
  takeSlot(sessionID: string, key: string, workItemID: string | null): void;
  /** Starts waiting on the run: the same path as a run the engine started (start-agent-async.ts). */
  runAgent(request: AgentRunRequest, adapter: RuntimeAdapter, params: AgentStartParams): void;
}

const ACTIVE: ReadonlySet<AgentRunStatus> = new Set(['requested', 'running']);

/**
 * The initial state with the adopted runs among its runs, each `requested` again (its `*Started` follows once
 * the runtime has its handle): the state shows them active before the first poll, so an item in progress is
 * not taken for orphaned.
 */
export function withAdoptedRuns(config: {
  initialState?: Partial<EngineState>;
  adoptedRuns?: readonly AdoptedRun[];
}): Partial<EngineState> {
  const adopted = (config.adoptedRuns ?? []).map(({ run }) => [
    run.sessionID,
    { ...run, status: 'requested' as const, error: null },
  ]);
  return {
    ...config.initialState,
    agentRuns: { ...config.initialState?.agentRuns, ...Object.fromEntries(adopted) },
  };
}

/** Takes a slot for each adopted run and starts waiting on it with the runtime that ran it. */
export function adoptRuns(adopted: readonly AdoptedRun[], deps: AdoptRunsDeps): void {
  for (const { run, params } of adopted) {
    if (!ACTIVE.has(run.status) || run.sessionID !== params.sessionID || run.role !== params.role) continue;
    deps.takeSlot(run.sessionID, buildDispatchKey(run), run.role === 'planner' ? null : run.workItemID);
    const { prompt: _prompt, ...request } = params;
    deps.runAgent(request as AgentRunRequest, adapterOf(run, deps.adapters), params);
  }
}

/** The runtime that recorded the run (a `runtime:` label's choice), else its role's. */
function adapterOf(run: AgentRun, adapters: RuntimeAdapters): RuntimeAdapter {
  const chosen = run.runtime === undefined ? null : (adapters.choices?.get(run.runtime) ?? null);
  return chosen ?? adapters[run.role];
}
