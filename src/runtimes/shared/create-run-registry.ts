import type { AgentRole, AgentRunOutcome, AgentUsage } from '../../domain/index.ts';
import { AgentRunFailure, type AgentRunHandle } from '../../engine/runtime-contract/index.ts';
import type { SessionLog } from '../../session-log/create-session-log.ts';
import { createOutputBroadcast, type OutputBroadcast } from '../../shared/create-output-broadcast.ts';
import { messageOf } from '../../shared/message-of.ts';

export type AbortReason = 'cancelled' | 'timeout';

/** One run between provisioning and its result: abort state, live output, activity listeners. */
export interface ActiveRun {
  /** Aborted on cancel and on timeout: hand it to the SDK, the process, the validation commands. */
  readonly signal: AbortSignal;
  /** Why the engine or the timer aborted the run; null while it runs on its own. */
  readonly abortReason: AbortReason | null;
  /** The failure the result rejects with for an abort (`cancelled` / `timeout`). */
  abortFailure(reason: AbortReason): AgentRunFailure;
  readonly output: OutputBroadcast;
  /** Tells the engine's stall detection the run is busy (tool calls, a running validation command). */
  notifyActivity(): void;
  /**
   * Runs the body to the role's result (or the agent's questions) and settles the run: any failure becomes
   * an AgentRunFailure (an abort wins over whatever threw), then — failed or not — the timer stops, the run
   * leaves the registry, the output ends, the transcript is finished and `cleanUp` runs (worktree, per-run
   * directories; a runtime whose run asked questions keeps them for the answers by skipping its own cleanup).
   */
  settle<T extends AgentRunOutcome>(body: () => Promise<T>, options: SettleOptions): Promise<T>;
  /** The handle the engine gets for a settling result. */
  handle(
    result: Promise<AgentRunOutcome>,
    details: { logFilePath: string | null; usage: () => AgentUsage | null },
  ): AgentRunHandle;
}

export interface SettleOptions {
  sessionLog: SessionLog | null;
  cleanUp: () => Promise<void>;
  /** A thrown error that is no AgentRunFailure, in the runtime's words (default: reason `error`, its message). */
  toFailure?: (error: unknown) => AgentRunFailure;
  /** The runtime's last word on a failure (e.g. naming the credential to set); may replace it. */
  onFailure?: (failure: AgentRunFailure, error: unknown) => AgentRunFailure | Promise<AgentRunFailure>;
}

export interface RunRegistry {
  /** Throws when a run with this session id is still running. */
  assertIdle(sessionID: string): void;
  /** Registers the run and starts its `maxAgentDuration` timer. */
  begin(params: { sessionID: string; role: AgentRole; maxAgentDuration: number }): ActiveRun;
  /** Aborts the run with reason `cancelled`; unknown ids are ignored (the contract's `cancelAgent`). */
  cancel(sessionID: string): void;
}

function defaultFailure(error: unknown): AgentRunFailure {
  if (error instanceof Error && error.name === 'AbortError')
    return new AgentRunFailure('cancelled', messageOf(error));
  return new AgentRunFailure('error', messageOf(error), { cause: error });
}

/**
 * The run shell every agent runtime shares (Claude, Codex, CLI): session ids to runs, cancel and the
 * duration timeout through one abort signal, the failure a result rejects with, and the teardown that
 * follows every run. What a runtime does inside a run (SDK session, process, rounds) stays its own.
 */
export function createRunRegistry(): RunRegistry {
  const runs = new Map<string, { controller: AbortController; reason: AbortReason | null }>();

  const abort = (sessionID: string, reason: AbortReason) => {
    const tracked = runs.get(sessionID);
    if (!tracked) return;
    tracked.reason ??= reason;
    tracked.controller.abort(reason);
  };

  return {
    assertIdle(sessionID) {
      if (runs.has(sessionID)) throw new Error(`session ${sessionID} is already running`);
    },

    begin({ sessionID, role, maxAgentDuration }) {
      this.assertIdle(sessionID);
      const tracked = { controller: new AbortController(), reason: null as AbortReason | null };
      runs.set(sessionID, tracked);
      const output = createOutputBroadcast();
      const activityListeners = new Set<() => void>();
      const timeout = setTimeout(() => abort(sessionID, 'timeout'), timerDelayMs(maxAgentDuration));
      timeout.unref();
      const abortFailure = (reason: AbortReason) =>
        new AgentRunFailure(
          reason,
          reason === 'timeout'
            ? `the ${role} session exceeded maxAgentDuration (${maxAgentDuration}s)`
            : `the ${role} session was cancelled`,
        );

      const run: ActiveRun = {
        signal: tracked.controller.signal,
        get abortReason() {
          return tracked.reason;
        },
        abortFailure,
        output,
        notifyActivity() {
          for (const listener of activityListeners) listener();
        },

        settle(body, options) {
          const settled = (async () => {
            let outcome: 'completed' | 'failed' | 'cancelled' | 'timed-out' = 'failed';
            try {
              const result = await body();
              outcome = 'completed';
              return result;
            } catch (error) {
              // A cancel or timeout ends the run as that, whatever threw on the way out.
              let failure = tracked.reason
                ? abortFailure(tracked.reason)
                : error instanceof AgentRunFailure
                  ? error
                  : (options.toFailure ?? defaultFailure)(error);
              if (failure.reason === 'timeout') outcome = 'timed-out';
              else if (failure.reason === 'cancelled') outcome = 'cancelled';
              if (options.onFailure) failure = await options.onFailure(failure, error);
              throw failure;
            } finally {
              clearTimeout(timeout);
              runs.delete(sessionID);
              output.end();
              await options.sessionLog?.finish(outcome).catch(() => {});
              await options.cleanUp();
            }
          })();
          // The engine attaches its own handler; this one only keeps an early rejection from going unobserved.
          settled.catch(() => {});
          return settled;
        },

        handle(result, { logFilePath, usage }) {
          return {
            output: output.subscribe(),
            result,
            logFilePath,
            usage,
            onActivity(listener) {
              activityListeners.add(listener);
              return () => activityListeners.delete(listener);
            },
          };
        },
      };
      return run;
    },

    cancel(sessionID) {
      abort(sessionID, 'cancelled');
    },
  };
}

/**
 * A run's time limit as a timer delay. Node fires a timer longer than 2^31 − 1 ms at once, so a huge limit
 * (a test's "no limit") would end every run immediately: it is held at the longest delay a timer can wait.
 */
function timerDelayMs(seconds: number): number {
  return Math.min(seconds * 1000, 2 ** 31 - 1);
}
