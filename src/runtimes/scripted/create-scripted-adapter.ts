import type { AgentFailureReason, AgentResult, AgentRole, AgentUsage } from '../../domain/index.ts';
import {
  AgentRunFailure,
  type AgentRunHandle,
  type AgentStartParams,
  type RuntimeAdapter,
} from '../../engine/runtime-contract/index.ts';
import { messageOf } from '../../shared/message-of.ts';
import {
  createScriptedSession,
  type ScriptedOutcome,
  type ScriptedSession,
} from './create-scripted-session.ts';
import type {
  ScriptedAdapterScript,
  ScriptedRun,
  ScriptedRunContext,
  ScriptedRunFactory,
} from './scripted-run.ts';
import { globalTimers, type ScriptedTimers } from './scripted-timers.ts';

export interface ScriptedAdapterOptions {
  /** Default: the global timers, looked up per call (Vitest fake timers work). */
  timers?: ScriptedTimers;
  /** Default: `/logs/<sessionID>.log`. Null: no log file. */
  logFilePath?: ((params: AgentStartParams) => string | null) | null;
  /** What `handle.usage()` reports once the result settled. Default: DEFAULT_SCRIPTED_USAGE. */
  usage?: AgentUsage | null;
  /** Fails a run with reason `timeout` after this many ms (like maxAgentDuration). Default: no limit. */
  maxDurationMs?: number;
}

export const DEFAULT_SCRIPTED_USAGE: AgentUsage = {
  costUSD: 0.01,
  inputTokens: 1000,
  outputTokens: 200,
  turns: 3,
};

export type ScriptedSessionStatus =
  | 'starting'
  | 'running'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'provisioning-failed';

/** What the adapter knows about one startAgent call; control returns copies. */
export interface ScriptedSessionInfo {
  sessionID: string;
  role: AgentRole;
  params: AgentStartParams;
  status: ScriptedSessionStatus;
  /** Every chunk the session emitted, in order. */
  output: string[];
  /** The result `handle.result` resolved with. */
  result: AgentResult | null;
  /** Why `startAgent` or `handle.result` rejected. */
  failure: { reason: AgentFailureReason; message: string } | null;
  /** True once cancelAgent was called for it. */
  cancelRequested: boolean;
}

interface SessionEntry {
  info: ScriptedSessionInfo;
  session: ScriptedSession | null;
  /** Ends a pending startDelayMs early (cancel during start). */
  wakeStart: (() => void) | null;
  started: boolean;
}

export type ScriptedAdapter = RuntimeAdapter & { control: ReturnType<typeof createControl> };

/**
 * A runtime adapter that plays scripted runs instead of running agents: for engine tests and benchmarks.
 * Sessions are keyed by the engine's `params.sessionID`. With no delays in the script, everything happens on
 * microtasks (no timers).
 */
export function createScriptedAdapter(
  script: ScriptedAdapterScript,
  options: ScriptedAdapterOptions = {},
): ScriptedAdapter {
  const timers = options.timers ?? globalTimers;
  const queues = new Map<AgentRole, ScriptedRun[]>();
  const factories = new Map<AgentRole, ScriptedRunFactory>();
  for (const [role, source] of Object.entries(script) as [AgentRole, ScriptedAdapterScript[AgentRole]][]) {
    if (typeof source === 'function') factories.set(role, source);
    else if (source) queues.set(role, [...source]);
  }
  const entries = new Map<string, SessionEntry>();
  const cancelRequests: string[] = [];
  const cancelledSessionIDs: string[] = [];
  const listeners = new Set<() => void>();
  const roleCounts = new Map<AgentRole, number>();

  function notify(): void {
    for (const listener of [...listeners]) listener();
  }

  async function nextRun(params: AgentStartParams, context: ScriptedRunContext): Promise<ScriptedRun> {
    const queued = queues.get(params.role)?.shift();
    if (queued) return queued;
    const factory = factories.get(params.role);
    if (factory) return factory(structuredClone(params), context);
    throw new AgentRunFailure(
      'error',
      `scripted adapter: no scripted run left for role ${params.role} (session ${params.sessionID})`,
    );
  }

  function endStart(entry: SessionEntry, status: ScriptedSessionStatus, failure: AgentRunFailure): never {
    entry.info.status = status;
    entry.info.failure = { reason: failure.reason, message: failure.message };
    notify();
    throw failure;
  }

  function sleepDuringStart(entry: SessionEntry, ms: number | undefined): Promise<void> {
    if (ms === undefined || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const handle = timers.setTimeout(() => {
        entry.wakeStart = null;
        resolve();
      }, ms);
      entry.wakeStart = () => {
        timers.clearTimeout(handle);
        entry.wakeStart = null;
        resolve();
      };
    });
  }

  function onSettled(entry: SessionEntry, outcome: ScriptedOutcome): void {
    if (outcome.kind === 'result') {
      entry.info.status = 'completed';
      entry.info.result = structuredClone(outcome.result);
    } else {
      entry.info.status = outcome.reason === 'cancelled' ? 'cancelled' : 'failed';
      entry.info.failure = { reason: outcome.reason, message: outcome.message };
    }
    notify();
  }

  async function startAgent(params: AgentStartParams): Promise<AgentRunHandle> {
    if (entries.has(params.sessionID)) {
      throw new Error(`scripted adapter: session ${params.sessionID} was already started`);
    }
    const entry: SessionEntry = {
      info: {
        sessionID: params.sessionID,
        role: params.role,
        params: structuredClone(params),
        status: 'starting',
        output: [],
        result: null,
        failure: null,
        cancelRequested: false,
      },
      session: null,
      wakeStart: null,
      started: false,
    };
    const context: ScriptedRunContext = { index: entries.size, roleIndex: roleCounts.get(params.role) ?? 0 };
    entries.set(params.sessionID, entry);
    roleCounts.set(params.role, context.roleIndex + 1);
    notify();

    let run: ScriptedRun;
    try {
      run = structuredClone(await nextRun(params, context));
    } catch (error) {
      const message = messageOf(error);
      return endStart(entry, 'provisioning-failed', new AgentRunFailure('error', message, { cause: error }));
    }
    await sleepDuringStart(entry, run.startDelayMs);
    if (entry.info.cancelRequested) {
      return endStart(
        entry,
        'cancelled',
        new AgentRunFailure('cancelled', 'run cancelled before it started'),
      );
    }
    if (run.end.kind === 'provisioningFailure') {
      return endStart(entry, 'provisioning-failed', new AgentRunFailure('error', run.end.message));
    }

    const defaultLogPath = options.logFilePath === undefined ? defaultLogFilePath : options.logFilePath;
    const session = createScriptedSession({
      params: entry.info.params,
      run,
      timers,
      usage: run.usage !== undefined ? run.usage : (options.usage ?? DEFAULT_SCRIPTED_USAGE),
      logFilePath: run.logFilePath !== undefined ? run.logFilePath : (defaultLogPath?.(params) ?? null),
      maxDurationMs: options.maxDurationMs ?? null,
      onOutput: (text) => {
        entry.info.output.push(text);
      },
      onSettled: (outcome) => onSettled(entry, outcome),
    });
    entry.session = session;
    entry.started = true;
    entry.info.status = 'running';
    notify();
    session.start();
    return session.handle;
  }

  function cancelAgent(sessionID: string): void {
    cancelRequests.push(sessionID);
    const entry = entries.get(sessionID);
    if (!entry || entry.info.cancelRequested) return;
    if (entry.info.status === 'starting') {
      entry.info.cancelRequested = true;
      cancelledSessionIDs.push(sessionID);
      entry.wakeStart?.();
    } else if (entry.info.status === 'running' && entry.session) {
      entry.info.cancelRequested = true;
      cancelledSessionIDs.push(sessionID);
      entry.session.finish({ kind: 'fail', reason: 'cancelled', message: 'run cancelled' });
    }
  }

  const control = createControl({
    entries,
    queues,
    cancelRequests,
    cancelledSessionIDs,
    listeners,
  });
  return { startAgent, cancelAgent, control };
}

function defaultLogFilePath(params: AgentStartParams): string {
  return `/logs/${params.sessionID}.log`;
}

interface ControlDeps {
  entries: Map<string, SessionEntry>;
  queues: Map<AgentRole, ScriptedRun[]>;
  cancelRequests: string[];
  cancelledSessionIDs: string[];
  listeners: Set<() => void>;
}

function createControl({ entries, queues, cancelRequests, cancelledSessionIDs, listeners }: ControlDeps) {
  const all = () => [...entries.values()];

  function running(sessionID: string): ScriptedSession {
    const entry = entries.get(sessionID);
    if (!entry) throw new Error(`scripted adapter: unknown session ${sessionID}`);
    if (!entry.session || entry.session.settled) {
      throw new Error(`scripted adapter: session ${sessionID} is not running (${entry.info.status})`);
    }
    return entry.session;
  }

  function waitUntil<T>(check: () => T | undefined): Promise<T> {
    return new Promise((resolve) => {
      const listener = () => {
        const value = check();
        if (value === undefined) return;
        listeners.delete(listener);
        resolve(value);
      };
      listeners.add(listener);
      listener();
    });
  }

  const atLeast = (count: number, select: (entry: SessionEntry) => boolean) => () => {
    const matching = all().filter(select);
    return matching.length >= count ? structuredClone(matching.map((entry) => entry.info)) : undefined;
  };

  return {
    /** Every startAgent call in order, provisioning failures included. */
    sessions(): ScriptedSessionInfo[] {
      return structuredClone(all().map((entry) => entry.info));
    },
    session(sessionID: string): ScriptedSessionInfo | null {
      const entry = entries.get(sessionID);
      return entry ? structuredClone(entry.info) : null;
    },
    /** The params of every startAgent call, in order: what the engine asked for. */
    startedParams(): AgentStartParams[] {
      return structuredClone(all().map((entry) => entry.info.params));
    },
    /** Sessions starting or running. */
    activeSessionIDs(): string[] {
      return all()
        .filter((entry) => entry.info.status === 'starting' || entry.info.status === 'running')
        .map((entry) => entry.info.sessionID);
    },
    /** Sessions that cancelAgent actually ended, in order. */
    cancelledSessionIDs(): string[] {
      return [...cancelledSessionIDs];
    },
    /** Every cancelAgent call's id, unknown and already-ended ones included. */
    cancelRequests(): string[] {
      return [...cancelRequests];
    },
    /** Ends a running (e.g. hanging) session with this result; validated like a scripted result. */
    resolve(sessionID: string, result: AgentResult): void {
      running(sessionID).finish({ kind: 'result', result: structuredClone(result) });
    },
    /** Ends a running session: its result rejects with an AgentRunFailure of this reason. */
    reject(sessionID: string, reason: AgentFailureReason, message: string): void {
      running(sessionID).finish({ kind: 'fail', reason, message });
    },
    /** Emits an output chunk on a running session. */
    emit(sessionID: string, text: string): void {
      running(sessionID).emit(text);
    },
    /** Fires the activity listeners of a running session. */
    ping(sessionID: string): void {
      running(sessionID).ping();
    },
    /** Appends runs to the role's queue (used before the role's function, if it has one). */
    enqueue(role: AgentRole, ...runs: ScriptedRun[]): void {
      const queue = queues.get(role) ?? [];
      queue.push(...runs);
      queues.set(role, queue);
    },
    /** Queued runs not yet used for the role. */
    remaining(role: AgentRole): number {
      return queues.get(role)?.length ?? 0;
    },
    /** Resolves once at least `count` sessions have started (startAgent resolved), with those sessions. */
    waitForStarted(count: number): Promise<ScriptedSessionInfo[]> {
      return waitUntil(atLeast(count, (entry) => entry.started));
    },
    /** Resolves once at least `count` sessions have ended (completed, failed, cancelled or not provisioned). */
    waitForSettled(count: number): Promise<ScriptedSessionInfo[]> {
      return waitUntil(
        atLeast(count, (entry) => entry.info.status !== 'starting' && entry.info.status !== 'running'),
      );
    },
  };
}
