import { type AgentNote, type AgentUsage, isAgentQuestions } from '../domain/index.ts';
import {
  failureReasonOf,
  type RuntimeAdapter,
  type RuntimeAdapters,
  resetsAtOf,
} from '../engine/runtime-contract/index.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { AgentRunMessage, AgentRunReply, RuntimeKey } from './agent-run-message.ts';
import type { RunExecution } from './create-durable-run-queue.ts';

export interface RunExecutorOptions {
  executorID: string;
  /** The worker's own runtimes, built from its clone and its copy of the configuration. */
  runtimes: RuntimeAdapters;
  /** Brings the worker's clone to the run's base commit (create-cluster-git.ts `receive`). */
  prepareBase(baseCommit: string): Promise<void>;
  /** How often a running run checks whether the controller cancelled it; default 1 s. */
  cancelPollMs?: number;
  logger: Logger;
}

/**
 * A worker slot's side of a run (issue #33): the message's start params given to the worker's own runtime,
 * with the runtime's guards, sandbox and worktrees as on one machine; its output, notes, usage and result
 * gathered into a reply. Plain data in, plain data out: the reply is stored by the durable queue.
 */
export function createRunExecutor(options: RunExecutorOptions) {
  const { executorID, runtimes, logger } = options;
  const runtimeOf = (key: RuntimeKey): RuntimeAdapter | null =>
    'role' in key ? runtimes[key.role] : (runtimes.choices?.get(key.choice) ?? null);

  return async function execute(message: AgentRunMessage, execution: RunExecution): Promise<AgentRunReply> {
    const output: string[] = [];
    const notes: AgentNote[] = [];
    let usage: AgentUsage | null = null;
    const failed = (reason: AgentRunReply & { ok: false }) => reason;
    const base = { executor: executorID, usage, output: '', notes };
    const runtime = runtimeOf(message.runtime);
    if (runtime === null)
      return failed({
        ...base,
        ok: false,
        reason: 'unavailable',
        message: `worker ${executorID} has no runtime ${JSON.stringify(message.runtime)}`,
        resetsAt: null,
      });
    const { sessionID } = message.params;
    logger.info('run taken', { executorID, sessionID, role: message.params.role });
    let watch: ReturnType<typeof setInterval> | null = null;
    try {
      await options.prepareBase(message.baseCommit);
      const handle = await runtime.startAgent(message.params);
      const unsubscribe = handle.onNote?.((note) => notes.push(note));
      watch = setInterval(() => {
        void execution.isCancelled().then(
          (cancelled) => {
            if (cancelled) runtime.cancelAgent(sessionID);
          },
          () => undefined,
        );
      }, options.cancelPollMs ?? 1000);
      const reading = (async () => {
        for await (const chunk of handle.output) output.push(chunk);
      })().catch(() => undefined);
      try {
        const outcome = await handle.result;
        await reading;
        usage = handle.usage?.() ?? null;
        if (isAgentQuestions(outcome)) {
          // The session and its worktree stay on no machine: the answer may be taken by any worker, which
          // starts a new session given the questions and answers (create-remote-runtime.ts).
          await runtime.discardSession?.(outcome.session);
          const session = {
            runtime: outcome.session.runtime,
            agentSessionID: null,
            worktree: null,
            stateDir: null,
          };
          return { ...base, usage, output: output.join(''), ok: true, result: { ...outcome, session } };
        }
        return { ...base, usage, output: output.join(''), ok: true, result: outcome };
      } catch (error) {
        await reading;
        usage = handle.usage?.() ?? null;
        return failed({
          ...base,
          usage,
          output: output.join(''),
          ok: false,
          reason: failureReasonOf(error),
          message: messageOf(error),
          resetsAt: resetsAtOf(error),
        });
      } finally {
        unsubscribe?.();
      }
    } catch (error) {
      // The base could not be fetched, or the session could not start.
      return failed({
        ...base,
        output: output.join(''),
        ok: false,
        reason: failureReasonOf(error),
        message: `on worker ${executorID}: ${messageOf(error)}`,
        resetsAt: resetsAtOf(error),
      });
    } finally {
      if (watch !== null) clearInterval(watch);
      logger.info('run finished', { executorID, sessionID });
    }
  };
}
