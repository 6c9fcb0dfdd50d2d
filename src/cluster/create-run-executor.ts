import { type AgentNote, type AgentUsage, isAgentQuestions } from '../domain/index.ts';
import {
  type AgentRunHandle,
  failureReasonOf,
  type RuntimeAdapter,
  type RuntimeAdapters,
  resetsAtOf,
} from '../engine/runtime-contract/index.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import { addEarlierExecutionsUsage } from './add-earlier-executions-usage.ts';
import type { AgentRunMessage, AgentRunReply, RuntimeKey } from './agent-run-message.ts';
import { bridgeRunConversations } from './bridge-run-conversations.ts';
import type { RunExecution } from './create-durable-run-queue.ts';
import type { RunMessages } from './create-run-messages.ts';
import type { RunProgress } from './create-run-progress.ts';
import type { TranscriptChunks } from './create-transcript-chunks.ts';
import { startProgressStream } from './start-progress-stream.ts';
import { startTranscriptMirror } from './start-transcript-mirror.ts';

export interface RunExecutorOptions {
  executorID: string;
  /** The worker's own runtimes, built from its clone and its copy of the configuration. */
  runtimes: RuntimeAdapters;
  /** Brings the worker's clone to the run's base commit (create-cluster-git.ts `receive`). */
  prepareBase(baseCommit: string): Promise<void>;
  /** How often a running run checks whether the controller cancelled it; default 1 s. */
  cancelPollMs?: number;
  /** Where a running run's output, usage and activity are streamed to the controller; absent: reply only. */
  progress?: Pick<RunProgress, 'append'> & Partial<Pick<RunProgress, 'read'>>;
  /** How often what the run produced since is sent; default 500 ms. */
  progressFlushMs?: number;
  /**
   * The channel to the controller's conversation broker (create-run-messages.ts): the run's agent asks and
   * is asked as on one machine; absent: it can do neither. Polled every `progressFlushMs`.
   */
  messages?: Pick<RunMessages, 'send' | 'take'>;
  /** Where the run's transcript file is copied as it grows (create-transcript-chunks.ts); absent: not copied. */
  transcripts?: Pick<TranscriptChunks, 'append'>;
  /** How often the transcript's new lines are copied; default 1 s (at most 3 s). */
  transcriptFlushMs?: number;
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

  /** The run's live progress to the controller (create-run-progress.ts), when the slot has somewhere to send it. */
  const streamProgress = (handle: AgentRunHandle, sessionID: string) => {
    const { progress } = options;
    return progress === undefined
      ? null
      : startProgressStream(handle, {
          send: (entry) => progress.append(sessionID, executorID, entry),
          flushMs: options.progressFlushMs ?? 500,
          logger,
        });
  };
  /** The run's transcript file copied to PostgreSQL as it grows, so any machine's `flotilla logs` reads it. */
  const mirrorTranscript = (handle: AgentRunHandle, message: AgentRunMessage) => {
    const { transcripts } = options;
    if (transcripts === undefined || handle.logFilePath === null) return null;
    const { sessionID } = message.params;
    const sessionNumber = message.sessionNumber ?? 1;
    return startTranscriptMirror({
      filePath: handle.logFilePath,
      send: (chunk) =>
        transcripts.append({ ...chunk, runID: sessionID, sessionNumber, executor: executorID }),
      flushMs: options.transcriptFlushMs ?? 1000,
      logger,
    });
  };
  /**
   * The run's usage with what its earlier executions spent (a worker killed mid-run was billed too): the reply
   * is what the ledger records (add-earlier-executions-usage.ts). Unreadable progress: its own usage, logged.
   */
  const usageOf = async (handle: AgentRunHandle, runID: string) => {
    const own = handle.usage?.() ?? null;
    const read = options.progress?.read;
    if (read === undefined) return own;
    try {
      return addEarlierExecutionsUsage(own, executorID, await read(runID, 0));
    } catch (error) {
      logger.warn('could not read what earlier executions of a run spent', {
        runID,
        error: messageOf(error),
      });
      return own;
    }
  };
  /**
   * What runs beside a run: the poll of whether the controller cancelled it (`cancel` stops its agent), its
   * live progress, its conversations and its transcript's copy; `output` takes each chunk of its text,
   * `stop` ends them all.
   */
  const accompany = (
    handle: AgentRunHandle,
    execution: RunExecution,
    cancel: () => void,
    message: AgentRunMessage,
  ) => {
    const { sessionID } = message.params;
    const timer = setInterval(() => {
      void execution.isCancelled().then(
        (cancelled) => {
          if (cancelled) cancel();
        },
        () => undefined,
      );
    }, options.cancelPollMs ?? 1000);
    const stream = streamProgress(handle, sessionID);
    const talk =
      options.messages === undefined || handle.conversations === undefined
        ? null
        : bridgeRunConversations(sessionID, handle.conversations, options.messages, {
            pollMs: options.progressFlushMs ?? 500,
            logger,
          });
    const transcript = mirrorTranscript(handle, message);
    return {
      output: (chunk: string) => stream?.output(chunk),
      async stop() {
        clearInterval(timer);
        talk?.stop();
        await Promise.all([stream?.stop(), transcript?.stop()]);
      },
    };
  };

  return async function execute(message: AgentRunMessage, execution: RunExecution): Promise<AgentRunReply> {
    const output: string[] = [];
    const notes: AgentNote[] = [];
    const failed = (reason: AgentRunReply & { ok: false }) => reason;
    const base = { executor: executorID, usage: null, output: '', notes };
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
    let watch: ReturnType<typeof accompany> | null = null;
    try {
      await options.prepareBase(message.baseCommit);
      const handle = await runtime.startAgent(message.params);
      const unsubscribe = handle.onNote?.((note) => notes.push(note));
      watch = accompany(handle, execution, () => runtime.cancelAgent(sessionID), message);
      const reading = readOutput(handle.output, output, watch.output);
      try {
        const outcome = await handle.result;
        await reading;
        const usage = await usageOf(handle, sessionID);
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
        const usage = await usageOf(handle, sessionID);
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
      await watch?.stop();
      logger.info('run finished', { executorID, sessionID });
    }
  };
}

/** Reads the run's text to its end into `into`, each chunk also to `onChunk`; never rejects. */
async function readOutput(
  output: AsyncIterable<string>,
  into: string[],
  onChunk: (chunk: string) => void,
): Promise<void> {
  try {
    for await (const chunk of output) {
      into.push(chunk);
      onChunk(chunk);
    }
  } catch {
    // The run's failure is its result's; the text read so far stays.
  }
}
