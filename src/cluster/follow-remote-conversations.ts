import type { AgentConversationPort, ConversationBrokerLink } from '../engine/runtime-contract/index.ts';
import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { ControllerMessage, RunMessages } from './create-run-messages.ts';

export interface FollowedRemoteConversations {
  /** The remote run's handle's `conversations`: the engine's broker joins it like a local run's. */
  port: AgentConversationPort;
  /** Resolves once the last messages were taken (after `done` settled); at once when never connected. */
  ended: Promise<void>;
}

/**
 * The controller's side of a remote run's conversations (issue #28 §3 across machines): the broker's
 * questions for the run's agent and their withdrawals are sent to its worker (create-run-messages.ts); the
 * agent's asks and answers its worker sent are polled every `pollMs` once the broker connected, until `done`
 * settles, and handed to the broker, whose replies go back to the worker. The broker keeps every bound (not
 * running, two-way ask, timeout, stopped); this only carries messages. Best effort: a failed send or poll is
 * logged, and the worker's side ends an ask it hears nothing of (bridge-run-conversations.ts).
 */
export function followRemoteConversations(
  runID: string,
  messages: Pick<RunMessages, 'send' | 'take'>,
  options: { pollMs: number; done: Promise<unknown>; logger: Logger },
): FollowedRemoteConversations {
  const { logger } = options;
  let settled = false;
  let ended: Promise<void> = Promise.resolve();
  void options.done.finally(() => {
    settled = true;
  });
  const send = (
    message: Parameters<RunMessages['send']>[2] & { kind: 'reply' | 'question' | 'withdraw' },
  ) => {
    // After the reply landed nobody reads them (and the run's rows are being forgotten).
    if (settled) return;
    messages.send(runID, 'worker', message).catch((error: unknown) => {
      logger.warn('could not send a conversation message to a remote run', {
        runID,
        kind: message.kind,
        error: messageOf(error),
      });
    });
  };
  const handle = (link: ConversationBrokerLink, message: ControllerMessage) => {
    if (message.kind === 'ask') {
      void link.ask(message.request).then((reply) => send({ kind: 'reply', callID: message.callID, reply }));
      return;
    }
    const ack = link.answer(message.conversationID, message.answer);
    if (!ack.ok)
      logger.info('a remote agent’s answer was not taken', {
        runID,
        conversationID: message.conversationID,
        error: ack.error,
      });
  };
  const poll = async (link: ConversationBrokerLink) => {
    for (;;) {
      const last = settled;
      try {
        const { messages: taken, refused } = await messages.take(runID, 'controller');
        for (const problem of refused) logger.warn('refused a conversation message', { runID, ...problem });
        for (const message of taken) handle(link, message);
      } catch (error) {
        logger.warn('could not read a remote run’s conversation messages', {
          runID,
          error: messageOf(error),
        });
      }
      if (last) return;
      await Promise.race([new Promise((resolve) => setTimeout(resolve, options.pollMs)), options.done]).catch(
        () => undefined,
      );
    }
  };
  return {
    port: {
      connect(link) {
        ended = poll(link);
      },
      deliverQuestion: (question) => send({ kind: 'question', question }),
      withdrawQuestion: (conversationID) => send({ kind: 'withdraw', conversationID }),
    },
    get ended() {
      return ended;
    },
  };
}
