import { type AgentNote, type AgentRunOutcome, buildRestartedPrompt } from '../domain/index.ts';
import {
  AgentRunFailure,
  type AgentRunHandle,
  type AgentStartParams,
  type RuntimeAdapter,
  type RuntimeAdapters,
} from '../engine/runtime-contract/index.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { AgentRunReply, RuntimeKey } from './agent-run-message.ts';
import type { ClusterGit } from './create-cluster-git.ts';
import { type DurableRunQueue, RunCancelledError } from './create-durable-run-queue.ts';
import type { RunMessages } from './create-run-messages.ts';
import type { RunProgress } from './create-run-progress.ts';
import { followRemoteConversations } from './follow-remote-conversations.ts';
import { type FollowedRunProgress, followRunProgress } from './follow-run-progress.ts';

export interface RemoteRuntimeDeps {
  queue: Pick<DurableRunQueue, 'enqueue' | 'result' | 'cancel'>;
  git: Pick<ClusterGit, 'publish'>;
  logger: Logger;
  /** The slots' live progress (create-run-progress.ts); absent: output and usage arrive with the reply. */
  progress?: Pick<RunProgress, 'read' | 'forget'>;
  /** How often a running run's progress is read; default 500 ms. */
  progressPollMs?: number;
  /**
   * The channel of the runs' conversations (create-run-messages.ts): a remote run's handle gets a
   * `conversations` port the engine's broker joins; absent: remote agents can neither ask nor be asked.
   */
  messages?: Pick<RunMessages, 'send' | 'take' | 'forget'>;
}

/**
 * A runtime that runs nothing here (issue #33): `startAgent` publishes the run's base commit and enqueues
 * the start params on the durable run queue; a worker's own runtime (`key`) runs them; the reply comes back
 * through PostgreSQL. The engine sees the runtime contract only, so it does not change. A worker that dies
 * mid-run is invisible here: the run is requeued and this handle's result is the second execution's.
 */
export function createRemoteRuntime(
  key: RuntimeKey,
  name: string | undefined,
  deps: RemoteRuntimeDeps,
): RuntimeAdapter {
  const { queue, git, logger } = deps;
  return {
    ...(name !== undefined && { runtime: name }),
    async startAgent(requested: AgentStartParams): Promise<AgentRunHandle> {
      const params = restartedWithAnswers(requested);
      const { sessionID } = params;
      try {
        const baseCommit = await git.publish();
        const sessionNumber = requested.resume?.sessionNumber;
        await queue.enqueue(sessionID, {
          params,
          runtime: key,
          baseCommit,
          ...(sessionNumber !== undefined && { sessionNumber }),
        });
      } catch (error) {
        throw new AgentRunFailure('error', `could not enqueue the run: ${messageOf(error)}`, {
          cause: error,
        });
      }
      logger.debug('run enqueued for the workers', { sessionID, role: params.role });
      const reply = queue.result(sessionID);
      let settled: AgentRunReply | null = null;
      const noteListeners = new Set<(note: AgentNote) => void>();
      const emitNote = (note: AgentNote) => {
        for (const listener of noteListeners)
          try {
            listener(note);
          } catch (error) {
            logger.warn('a remote run’s note listener failed', { sessionID, error: messageOf(error) });
          }
      };
      const replied = reply.then(
        (value) => value,
        () => null,
      );
      const live =
        deps.progress === undefined
          ? null
          : followRunProgress(sessionID, deps.progress, {
              pollMs: deps.progressPollMs ?? 500,
              done: replied,
              logger,
            });
      if (live !== null && deps.progress !== undefined) {
        const { forget } = deps.progress;
        live.onNote(emitNote);
        // Once the last rows were read: the reply carries everything from then on.
        void live.ended.then(() => forget(sessionID)).catch(() => undefined);
      }
      const talk = joinConversations(sessionID, deps, replied);
      // The reply's notes the stream did not carry (all of them when nothing was streamed by the executor
      // that finished the run), once the stream's last rows were read, before the result.
      const noted = replied.then(async (value) => {
        if (live !== null) await live.ended;
        settled = value;
        if (value === null) return;
        for (const note of value.notes.slice(live?.notesStreamedBy(value.executor) ?? 0)) emitNote(note);
      });
      const result = outcomeOf(noted.then(() => reply));
      return {
        output: remoteOutput(live, replied),
        ...(live !== null && { onUsage: live.onUsage, onActivity: live.onActivity }),
        ...(talk !== null && { conversations: talk.port }),
        result,
        logFilePath: null,
        usage: () => (settled as AgentRunReply | null)?.usage ?? null,
        onNote(listener) {
          for (const note of (settled as AgentRunReply | null)?.notes ?? []) listener(note);
          noteListeners.add(listener);
          return () => noteListeners.delete(listener);
        },
      };
    },
    cancelAgent(sessionID) {
      queue.cancel(sessionID).catch((error: unknown) => {
        logger.warn('could not cancel a remote run', { sessionID, error: messageOf(error) });
      });
    },
  };
}

/**
 * The run's conversations with the controller's broker (create-run-messages.ts), ended and forgotten once its
 * reply landed; null without the channel.
 */
function joinConversations(
  sessionID: string,
  deps: RemoteRuntimeDeps,
  replied: Promise<AgentRunReply | null>,
): ReturnType<typeof followRemoteConversations> | null {
  const { messages } = deps;
  if (messages === undefined) return null;
  const talk = followRemoteConversations(sessionID, messages, {
    pollMs: deps.progressPollMs ?? 500,
    done: replied,
    logger: deps.logger,
  });
  void replied
    .then(() => talk.ended)
    .then(() => messages.forget(sessionID))
    .catch(() => undefined);
  return talk;
}

/** The reply as the runtime contract's outcome: a failure reply, a cancellation or a lost result is thrown. */
function outcomeOf(reply: Promise<AgentRunReply>): Promise<AgentRunOutcome> {
  return reply.then(
    (value) => {
      if (value.ok) return value.result;
      throw new AgentRunFailure(value.reason, value.message, { resetsAt: value.resetsAt });
    },
    (error: unknown) => {
      if (error instanceof RunCancelledError) throw new AgentRunFailure('cancelled', error.message);
      throw new AgentRunFailure('error', `the run's result was lost: ${messageOf(error)}`, { cause: error });
    },
  );
}

/**
 * A run that continues a session which asked a human, as a new session: the session stayed on whichever
 * worker ran it, and a worker keeps none (the executor discards it, `create-run-executor.ts`), so any worker
 * can take the continuation. Its prompt is the role's full context, then the questions and the answers, as a
 * runtime that cannot resume gets them (the runtime contract's `resume`).
 */
export function restartedWithAnswers(params: AgentStartParams): AgentStartParams {
  const { resume } = params;
  if (resume === undefined) return params;
  const restarted = {
    ...params,
    prompt: buildRestartedPrompt(params.prompt, resume.questions, resume.answers),
  };
  delete restarted.resume;
  return restarted;
}

/**
 * The run's text: as the slot streamed it (when progress is followed), then what of the reply's output the
 * stream did not carry — all of it when nothing was streamed by the executor that finished the run.
 */
async function* remoteOutput(
  live: FollowedRunProgress | null,
  replied: Promise<AgentRunReply | null>,
): AsyncGenerator<string> {
  if (live !== null) yield* live.output;
  const value = await replied;
  if (value === null) return;
  const streamed = live?.streamedBy(value.executor) ?? '';
  const rest = value.output.startsWith(streamed) ? value.output.slice(streamed.length) : '';
  if (rest.length > 0) yield rest;
}

/**
 * Each role's runtime, and each runtime a label may choose, replaced by its remote twin: the same runtime
 * name (recorded with runs), run by whichever worker takes it.
 */
export function toRemoteRuntimes(local: RuntimeAdapters, deps: RemoteRuntimeDeps): RuntimeAdapters {
  const remote = (role: 'planner' | 'implementor' | 'reviewer') =>
    createRemoteRuntime({ role }, local[role].runtime, deps);
  const choices = local.choices;
  const byName = new Map<string, RuntimeAdapter | null>();
  return {
    planner: remote('planner'),
    implementor: remote('implementor'),
    reviewer: remote('reviewer'),
    ...(choices !== undefined && {
      choices: {
        names: choices.names,
        get(name) {
          if (!byName.has(name)) {
            const found = choices.get(name);
            byName.set(
              name,
              found === null ? null : createRemoteRuntime({ choice: name }, found.runtime, deps),
            );
          }
          return byName.get(name) ?? null;
        },
      },
    }),
  };
}
