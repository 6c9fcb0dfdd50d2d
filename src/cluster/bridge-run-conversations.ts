import { randomUUID } from 'node:crypto';
import type { AgentAskReply, AgentAskRequest } from '../domain/index.ts';
import type { AgentConversationPort } from '../engine/runtime-contract/index.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { RunMessages, WorkerMessage } from './create-run-messages.ts';

/** How long past an ask's own timeout its worker waits for the controller's reply before it ends the ask. */
export const REMOTE_ASK_GRACE_MS = 5_000;

export interface RunConversationsBridge {
  /** The run ended: its asks still waiting end `stopped`, polling stops. */
  stop(): void;
}

interface Waiting {
  resolve: (reply: AgentAskReply) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * A worker slot's side of a run's conversations (issue #28 §3 across machines): the run's own port (its
 * runtime's, as on one machine) is connected to a link whose asks and answers are sent to the controller's
 * broker (create-run-messages.ts, followed by follow-remote-conversations.ts), and what the controller sends
 * is polled every `pollMs`: the replies to its asks, the questions asked of its agent, their withdrawals.
 * Fails closed: an ask that cannot be sent ends at once with why; one whose reply does not come within its
 * timeout and `graceMs` (the channel or the controller unreachable) ends `timeout`. An answer is taken for a
 * question delivered here and not withdrawn; the broker still decides (a late answer is dropped, logged there).
 */
export function bridgeRunConversations(
  runID: string,
  port: AgentConversationPort,
  messages: Pick<RunMessages, 'send' | 'take'>,
  options: { pollMs: number; graceMs?: number; logger: Logger },
): RunConversationsBridge {
  const { logger } = options;
  const graceMs = options.graceMs ?? REMOTE_ASK_GRACE_MS;
  const waiting = new Map<string, Waiting>();
  const asked = new Set<string>();
  let stopped = false;

  const finish = (callID: string, reply: AgentAskReply) => {
    const entry = waiting.get(callID);
    if (entry === undefined) return;
    waiting.delete(callID);
    clearTimeout(entry.timer);
    entry.resolve(reply);
  };
  const unsent = (callID: string, why: string): AgentAskReply => ({
    conversationID: `unsent-${callID.slice(0, 8)}`,
    status: 'stopped',
    text: `${why}; nobody was asked. Go on with your best assumption.`,
  });

  const ask = (request: AgentAskRequest): Promise<AgentAskReply> => {
    const callID = randomUUID();
    if (stopped) return Promise.resolve(unsent(callID, 'this run has ended'));
    return new Promise<AgentAskReply>((resolve) => {
      const waitMs = request.timeoutSeconds * 1000 + graceMs;
      const timer = setTimeout(
        () =>
          finish(callID, {
            conversationID: `unanswered-${callID.slice(0, 8)}`,
            status: 'timeout',
            text:
              `no word from the controller within ${Math.ceil(waitMs / 1000)} s (the cluster's channel may be ` +
              'unreachable); go on with your best assumption',
          }),
        waitMs,
      );
      waiting.set(callID, { resolve, timer });
      messages.send(runID, 'controller', { kind: 'ask', callID, request }).catch((error: unknown) => {
        logger.warn('could not send an ask to the controller', { runID, error: messageOf(error) });
        finish(
          callID,
          unsent(callID, `the question could not be sent to the controller (${messageOf(error)})`),
        );
      });
    });
  };

  port.connect({
    ask,
    answer(conversationID, answer) {
      if (!asked.delete(conversationID))
        return {
          ok: false,
          error: `no open question '${conversationID}' waits for your answer (it was answered, timed out, or is not yours)`,
        };
      messages
        .send(runID, 'controller', { kind: 'answer', conversationID, answer })
        .catch((error: unknown) => {
          logger.warn('could not send an answer to the controller', {
            runID,
            conversationID,
            error: messageOf(error),
          });
        });
      return { ok: true };
    },
  });

  const handle = (message: WorkerMessage) => {
    if (message.kind === 'reply') finish(message.callID, message.reply);
    else if (message.kind === 'question') {
      asked.add(message.question.conversationID);
      port.deliverQuestion(message.question);
    } else if (asked.delete(message.conversationID)) port.withdrawQuestion(message.conversationID);
  };
  const poll = async () => {
    try {
      const { messages: taken, refused } = await messages.take(runID, 'worker');
      for (const problem of refused) logger.warn('refused a conversation message', { runID, ...problem });
      for (const message of taken) handle(message);
    } catch (error) {
      logger.warn('could not read the controller’s conversation messages', {
        runID,
        error: messageOf(error),
      });
    }
  };
  let busy = false;
  const timer = setInterval(() => {
    if (busy || stopped) return;
    busy = true;
    void poll().finally(() => {
      busy = false;
    });
  }, options.pollMs);

  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      for (const callID of [...waiting.keys()])
        finish(callID, {
          conversationID: `unanswered-${callID.slice(0, 8)}`,
          status: 'stopped',
          text: 'this run ended before the answer came',
        });
    },
  };
}
