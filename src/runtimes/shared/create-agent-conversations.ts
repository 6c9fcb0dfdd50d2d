import type { IncomingAgentQuestion } from '../../domain/index.ts';
import {
  type AgentConversationPort,
  type ConversationBrokerLink,
  formatAskReply,
  parseAgentAnswer,
  parseAgentAsk,
} from '../../engine/runtime-contract/index.ts';

/** How long an ask made before the engine connected waits for it (the handle is connected right after start). */
const CONNECT_WAIT_MS = 10_000;

/**
 * One run's conversations with other agents (issue #28 §3), as its runtime sees them: the agent's
 * `ask_agent`/`answer_agent` calls go to the engine's broker through the handle's port, and the questions
 * other agents ask it wait here until it answers (`check_messages`, or pushed into a live session).
 */
export interface AgentConversations {
  /** The handle's `conversations`. */
  readonly port: AgentConversationPort;
  /** An `ask_agent` call (untrusted input): resolves with what the agent reads — the answer, or why none. */
  ask(input: unknown): Promise<string>;
  /** An `answer_agent` call (untrusted input): what the agent reads (`ok…`, or what was wrong). */
  answer(input: unknown): { ok: boolean; text: string };
  /** The questions waiting for this agent's answer, oldest first. */
  pending(): IncomingAgentQuestion[];
  /** Called on every change of `pending()`, with the question that just arrived (null: one left). */
  onChange(listener: (added: IncomingAgentQuestion | null) => void): () => void;
}

export function createAgentConversations(): AgentConversations {
  let broker: ConversationBrokerLink | null = null;
  const connectWaiters = new Set<() => void>();
  const waiting = new Map<string, IncomingAgentQuestion>();
  const listeners = new Set<(added: IncomingAgentQuestion | null) => void>();
  const changed = (added: IncomingAgentQuestion | null) => {
    for (const listener of listeners) listener(added);
  };
  const connected = async (): Promise<ConversationBrokerLink | null> => {
    if (broker !== null) return broker;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, CONNECT_WAIT_MS);
      timer.unref();
      function done() {
        clearTimeout(timer);
        connectWaiters.delete(done);
        resolve();
      }
      connectWaiters.add(done);
    });
    return broker;
  };
  return {
    port: {
      connect(link) {
        broker = link;
        for (const wake of [...connectWaiters]) wake();
      },
      deliverQuestion(question) {
        waiting.set(question.conversationID, question);
        changed(question);
      },
      withdrawQuestion(conversationID) {
        if (waiting.delete(conversationID)) changed(null);
      },
    },
    async ask(input) {
      const parsed = parseAgentAsk(input);
      if (!parsed.ok) return `Refused: ${parsed.error}`;
      const link = await connected();
      if (link === null)
        return 'No answer: this run cannot reach other agents; go on with your best assumption.';
      return formatAskReply(await link.ask(parsed.value));
    },
    answer(input) {
      const parsed = parseAgentAnswer(input);
      if (!parsed.ok) return { ok: false, text: `Refused: ${parsed.error}` };
      if (broker === null) return { ok: false, text: 'Refused: this run cannot reach other agents.' };
      const ack = broker.answer(parsed.value.conversationID, parsed.value.answer);
      if (waiting.delete(parsed.value.conversationID)) changed(null);
      return ack.ok
        ? { ok: true, text: `ok: answer sent (conversation ${parsed.value.conversationID})` }
        : { ok: false, text: `Refused: ${ack.error}` };
    },
    pending: () => [...waiting.values()],
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
