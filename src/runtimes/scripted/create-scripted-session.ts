import type { AgentFailureReason, AgentResult, AgentUsage } from '../../domain/index.ts';
import {
  AgentRunFailure,
  type AgentRunHandle,
  type AgentStartParams,
} from '../../engine/runtime-contract/index.ts';
import { messageOf } from '../../shared/message-of.ts';
import { createOutputChannel } from './create-output-channel.ts';
import type { ScriptedRun } from './scripted-run.ts';
import type { ScriptedTimers } from './scripted-timers.ts';

export type ScriptedOutcome =
  | { kind: 'result'; result: AgentResult }
  | { kind: 'fail'; reason: AgentFailureReason; message: string };

export interface ScriptedSessionInput {
  params: AgentStartParams;
  run: ScriptedRun;
  timers: ScriptedTimers;
  usage: AgentUsage | null;
  logFilePath: string | null;
  /** Fails the run with reason `timeout` after this long; null for no limit. */
  maxDurationMs: number | null;
  onOutput: (text: string) => void;
  /** Called once, with the outcome after validation, after `output` has ended. */
  onSettled: (outcome: ScriptedOutcome) => void;
}

/** Plays one scripted run: output steps, delays, then its ending; ends early on cancel or timeout. */
export function createScriptedSession(input: ScriptedSessionInput) {
  const { params, run, timers } = input;
  const channel = createOutputChannel();
  const activityListeners = new Set<() => void>();
  const pendingTimers = new Set<unknown>();
  let settled = false;
  let resolveResult: (result: AgentResult) => void = () => {};
  let rejectResult: (failure: AgentRunFailure) => void = () => {};
  const result = new Promise<AgentResult>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });

  /** Resolves after `ms`; never resolves once the session has ended (its timer is cleared). */
  function sleep(ms: number | undefined): Promise<void> {
    if (ms === undefined || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const handle = timers.setTimeout(() => {
        pendingTimers.delete(handle);
        resolve();
      }, ms);
      pendingTimers.add(handle);
    });
  }

  function emit(text: string): void {
    if (settled) throw new Error(`scripted adapter: session ${params.sessionID} has ended`);
    channel.push(text);
    input.onOutput(text);
  }

  function ping(): void {
    if (settled) throw new Error(`scripted adapter: session ${params.sessionID} has ended`);
    for (const listener of [...activityListeners]) listener();
  }

  function settle(outcome: ScriptedOutcome): void {
    if (settled) return;
    settled = true;
    for (const handle of pendingTimers) timers.clearTimeout(handle);
    pendingTimers.clear();
    activityListeners.clear();
    channel.end();
    const checked = outcome.kind === 'result' ? validate(params, outcome.result) : outcome;
    input.onSettled(checked);
    if (checked.kind === 'result') resolveResult(structuredClone(checked.result));
    else rejectResult(new AgentRunFailure(checked.reason, checked.message));
  }

  async function play(): Promise<void> {
    // Nothing happens inside startAgent itself: the caller gets the handle before the first chunk.
    await Promise.resolve();
    for (const step of run.output ?? []) {
      if (typeof step === 'string') {
        if (settled) return;
        emit(step);
        continue;
      }
      await sleep(step.delayMs);
      if (settled) return;
      if ('text' in step) emit(step.text);
      else ping();
    }
    await sleep(run.delayMs);
    if (settled) return;
    const { end } = run;
    if (end.kind === 'result') settle({ kind: 'result', result: end.result });
    else if (end.kind === 'fail') settle({ kind: 'fail', reason: end.reason, message: end.message });
    // 'hang' waits for cancel, the time limit or the test; 'provisioningFailure' never gets a session.
  }

  const handle: AgentRunHandle = {
    output: channel.iterable,
    result,
    logFilePath: input.logFilePath,
    usage: () => (settled ? structuredClone(input.usage) : null),
    onActivity(listener) {
      if (!settled) activityListeners.add(listener);
      return () => {
        activityListeners.delete(listener);
      };
    },
  };

  return {
    handle,
    get settled(): boolean {
      return settled;
    },
    start(): void {
      if (input.maxDurationMs !== null) {
        const limit = input.maxDurationMs;
        void sleep(limit).then(() =>
          settle({
            kind: 'fail',
            reason: 'timeout',
            message: `run exceeded the maximum duration of ${limit} ms`,
          }),
        );
      }
      play().catch((error: unknown) => {
        // A throwing activity listener ends the run, as a crash in the real adapter's stream loop would.
        settle({
          kind: 'fail',
          reason: 'error',
          message: messageOf(error),
        });
      });
    },
    emit,
    ping,
    finish: settle,
  };
}

export type ScriptedSession = ReturnType<typeof createScriptedSession>;

/** Enforces what the real adapter guarantees about a result before it resolves. */
function validate(params: AgentStartParams, result: AgentResult): ScriptedOutcome {
  if (result.role !== params.role) {
    return {
      kind: 'fail',
      reason: 'error',
      message: `scripted ${params.role} run produced a ${result.role} result`,
    };
  }
  if (result.role !== 'implementor') return { kind: 'result', result };
  if (result.outcome !== 'completed') return { kind: 'result', result: { ...result, patch: null } };
  // A mode's run (investigate, refine) returns its report and writes no file, as on the real runtimes.
  if (params.role === 'implementor' && params.mode !== undefined) {
    if (result.report?.mode === params.mode) return { kind: 'result', result: { ...result, patch: null } };
    return {
      kind: 'fail',
      reason: 'error',
      message: `scripted ${params.mode} run produced no ${params.mode} report`,
    };
  }
  if (result.patch === null || result.patch.trim() === '') {
    return { kind: 'fail', reason: 'no-changes', message: 'implementor completed with an empty patch' };
  }
  return { kind: 'result', result };
}
