import { randomUUID } from 'node:crypto';
import {
  type AgentAnswerAck,
  type AgentAskReply,
  type AgentConversation,
  type ConversationParty,
  type ConversationStatus,
  describeConversationParty,
  type EngineEvent,
  PLANNER_TARGET,
} from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Clock } from '../engine-config.ts';
import {
  type AgentConversationPort,
  parseAgentAnswer,
  parseAgentAsk,
} from '../runtime-contract/agent-conversation-schema.ts';

export interface ConversationBrokerDeps {
  emit: (event: EngineEvent) => void;
  clock: Clock;
  logger: Logger;
  /** Replaces secrets in questions and answers before they are passed on or stored; default: unchanged. */
  redact?: (text: string) => string;
  newID?: () => string;
}

/** Hooks a run gives the broker when it joins. */
export interface ConversationRunHooks {
  /** The run's agent waits for an answer (true) or no longer does (false): stall detection pauses meanwhile. */
  onWaiting?(waiting: boolean): void;
}

export interface ConversationBroker {
  /** A run under way whose runtime exposes conversations: it can ask and be asked until it leaves. */
  join(party: ConversationParty, port: AgentConversationPort, hooks?: ConversationRunHooks): void;
  /** The run ended (completed, failed, cancelled): its open asks and the questions waiting for it end `stopped`. */
  leave(sessionID: string): void;
  /** The conversations still open (tests, status). */
  openConversations(): AgentConversation[];
}

interface Member {
  party: ConversationParty;
  port: AgentConversationPort;
  hooks: ConversationRunHooks;
  /** Asks this run waits on. */
  waits: number;
}

interface Open {
  conversation: AgentConversation;
  timer: unknown;
  resolve: (reply: AgentAskReply) => void;
}

/**
 * The engine's conversation broker (issue #28 §3): routes a running agent's question to the running agent
 * it names, and the answer back; the agents never reach each other. Every conversation is an event
 * (`conversationCreated`, then `conversationAnswered`), which the store persists. Bounded: an ask of an agent
 * that is not running, of itself, or that would close a cycle of agents waiting on each other ends at once;
 * an open ask ends with its timeout or when either run ends. The model requests spent asking and answering
 * are the runs' own, so budgets count them like any other.
 */
export function createConversationBroker(deps: ConversationBrokerDeps): ConversationBroker {
  const { clock, logger } = deps;
  const redact = deps.redact ?? ((text: string) => text);
  const newID = deps.newID ?? (() => `c-${randomUUID().slice(0, 8)}`);
  const members = new Map<string, Member>();
  const open = new Map<string, Open>();

  /** The running agent an ask names: the planner, or the implementor (else reviewer) of the item. */
  function findTarget(target: string, asker: string): Member | null {
    const candidates = [...members.values()].filter(
      (member) =>
        member.party.sessionID !== asker &&
        (target === PLANNER_TARGET
          ? member.party.role === 'planner'
          : member.party.role !== 'planner' && member.party.workItemID === target),
    );
    return candidates.find((member) => member.party.role === 'implementor') ?? candidates[0] ?? null;
  }

  /** Whether `from` is (transitively) waiting for an answer of `to`'s: the ask `to` → `from` would close a cycle. */
  function waitsOn(from: string, to: string, seen = new Set<string>()): boolean {
    if (from === to) return true;
    if (seen.has(from)) return false;
    seen.add(from);
    for (const entry of open.values()) {
      const { conversation } = entry;
      if (conversation.from.sessionID === from && conversation.to !== null)
        if (waitsOn(conversation.to.sessionID, to, seen)) return true;
    }
    return false;
  }

  function finish(id: string, status: Exclude<ConversationStatus, 'open'>, reply: string): void {
    const entry = open.get(id);
    if (entry === undefined) return;
    open.delete(id);
    clock.clearTimeout(entry.timer);
    const { conversation } = entry;
    if (status !== 'answered' && conversation.to !== null)
      members.get(conversation.to.sessionID)?.port.withdrawQuestion(id);
    const asker = members.get(conversation.from.sessionID);
    if (asker !== undefined) {
      asker.waits -= 1;
      if (asker.waits === 0) asker.hooks.onWaiting?.(false);
    }
    deps.emit({ type: 'conversationAnswered', conversationID: id, status, answer: reply, at: clock.now() });
    entry.resolve({ conversationID: id, status, text: reply });
  }

  /** A conversation that ends as it is created (nobody to ask, or refused). */
  function endAtOnce(
    base: Omit<AgentConversation, 'status' | 'answer' | 'answeredAt'>,
    status: Exclude<ConversationStatus, 'open' | 'answered'>,
    text: string,
  ): AgentAskReply {
    const conversation: AgentConversation = { ...base, status, answer: text, answeredAt: base.createdAt };
    deps.emit({ type: 'conversationCreated', conversation, at: base.createdAt });
    return { conversationID: base.id, status, text };
  }

  async function ask(asker: Member, input: unknown): Promise<AgentAskReply> {
    const parsed = parseAgentAsk(input);
    const id = newID();
    if (!parsed.ok) return { conversationID: id, status: 'refused', text: parsed.error };
    const { to, timeoutSeconds } = parsed.value;
    const question = redact(parsed.value.question);
    const from = asker.party;
    const base = { id, from, target: to, to: null, question, timeoutSeconds, createdAt: clock.now() };
    if (!members.has(from.sessionID))
      return endAtOnce(base, 'stopped', 'your run has ended; nobody was asked');
    if ((to === PLANNER_TARGET && from.role === 'planner') || to === from.workItemID) {
      const self = findTarget(to, from.sessionID);
      if (self === null) return endAtOnce(base, 'refused', 'you cannot ask yourself');
    }
    const target = findTarget(to, from.sessionID);
    if (target === null)
      return endAtOnce(
        base,
        'not-running',
        `no agent ${to === PLANNER_TARGET ? 'planner' : `of work item #${to}`} is running now; nobody was asked. ` +
          'Go on with your best assumption.',
      );
    const withTarget = { ...base, to: target.party };
    if (waitsOn(target.party.sessionID, from.sessionID)) {
      const waiting = [...open.values()]
        .map((entry) => entry.conversation)
        .filter((pending) => pending.to?.sessionID === from.sessionID)
        .map((pending) => `${pending.id} from the ${describeConversationParty(pending.from)}`);
      return endAtOnce(
        withTarget,
        'refused',
        `the ${describeConversationParty(target.party)} is itself waiting for your answer ` +
          `(${waiting.join(', ') || 'through another agent'}); asking back would leave you both waiting. ` +
          'Answer its question first with answer_agent.',
      );
    }
    const conversation: AgentConversation = {
      ...withTarget,
      status: 'open',
      answer: null,
      answeredAt: null,
    };
    deps.emit({ type: 'conversationCreated', conversation, at: conversation.createdAt });
    const reply = new Promise<AgentAskReply>((resolve) => {
      const timer = clock.setTimeout(
        () => finish(id, 'timeout', `no answer within ${timeoutSeconds} s; go on with your best assumption`),
        timeoutSeconds * 1000,
      );
      open.set(id, { conversation, timer, resolve });
    });
    asker.waits += 1;
    if (asker.waits === 1) asker.hooks.onWaiting?.(true);
    try {
      target.port.deliverQuestion({
        conversationID: id,
        from: describeConversationParty(from),
        question,
      });
    } catch (error) {
      logger.warn('a question could not be delivered', { conversationID: id, error: String(error) });
      finish(id, 'stopped', 'the agent could not be reached');
    }
    return reply;
  }

  function answer(by: Member, conversationID: string, text: string): AgentAnswerAck {
    const parsed = parseAgentAnswer({ conversationId: conversationID, answer: text });
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const entry = open.get(parsed.value.conversationID);
    if (entry === undefined || entry.conversation.to?.sessionID !== by.party.sessionID)
      return {
        ok: false,
        error: `no open question '${parsed.value.conversationID}' waits for your answer (it was answered, timed out, or is not yours)`,
      };
    finish(parsed.value.conversationID, 'answered', redact(parsed.value.answer));
    return { ok: true };
  }

  return {
    join(party, port, hooks = {}) {
      const member: Member = { party, port, hooks, waits: 0 };
      members.set(party.sessionID, member);
      port.connect({
        ask: (request) => ask(member, request),
        answer: (conversationID, text) => answer(member, conversationID, text),
      });
    },
    leave(sessionID) {
      if (!members.has(sessionID)) return;
      for (const [id, entry] of [...open]) {
        if (entry.conversation.from.sessionID === sessionID)
          finish(id, 'stopped', 'the asking agent stopped');
        else if (entry.conversation.to?.sessionID === sessionID)
          finish(id, 'stopped', 'the agent stopped before it answered; go on with your best assumption');
      }
      members.delete(sessionID);
    },
    openConversations: () => [...open.values()].map((entry) => entry.conversation),
  };
}
