import type { AgentRole } from './agent-result.ts';

/**
 * Inter-agent questions (issue #28 §3): a running agent asks another running agent — by its work item id,
 * or `planner` — and waits for the answer; the asked agent gets the question while it works and answers it.
 * The engine routes every question and answer (agents never reach each other or the tracker) and stores each
 * conversation (`.flotilla/flotilla.db`, migration 016).
 *
 * How a conversation ends:
 * - `answered`: the asked agent answered;
 * - `timeout`: no answer within the asker's `timeoutSeconds`;
 * - `not-running`: no agent of that name runs now (answered at once);
 * - `refused`: the ask would close a cycle of agents waiting on each other (answered at once: the asker is
 *   told to answer the question waiting for it instead), or asked itself;
 * - `stopped`: the asked agent's run (or the asker's) ended first.
 */
export type ConversationStatus = 'open' | 'answered' | 'timeout' | 'not-running' | 'refused' | 'stopped';

/** Bounds of a conversation's fields, in characters and seconds. */
export const AGENT_CONVERSATION_LIMITS = {
  question: 2000,
  answer: 4000,
  /** The `to` the agent names: a work item id or `planner`. */
  target: 100,
  defaultTimeoutSeconds: 300,
  maxTimeoutSeconds: 1800,
} as const;

/** The name an agent asks the running planner by. */
export const PLANNER_TARGET = 'planner';

/** One side of a conversation: which run of which agent. */
export interface ConversationParty {
  sessionID: string;
  role: AgentRole;
  /** The run's work item; null for a planner. */
  workItemID: string | null;
}

export interface AgentConversation {
  id: string;
  from: ConversationParty;
  /** What the asker named (`12`, `planner`). */
  target: string;
  /** The run asked; null when none ran (`not-running`, some `refused`). */
  to: ConversationParty | null;
  question: string;
  status: ConversationStatus;
  /** The asked agent's answer (`answered`), else what the asker was told. */
  answer: string | null;
  timeoutSeconds: number;
  createdAt: number;
  answeredAt: number | null;
}

/** What an agent's `ask_agent` call carries (validated by the runtime and again by the engine). */
export interface AgentAskRequest {
  to: string;
  question: string;
  timeoutSeconds: number;
}

/** How an ask ended, for the asking agent: the answer, or why there is none. */
export interface AgentAskReply {
  conversationID: string;
  status: Exclude<ConversationStatus, 'open'>;
  /** The answer (`answered`), or a sentence saying why there is none. */
  text: string;
}

/** A question waiting for this agent's answer (what `check_messages` and the pushed message show). */
export interface IncomingAgentQuestion {
  conversationID: string;
  /** Who asks, in words: `implementor of #12`, `planner`. */
  from: string;
  question: string;
}

/** How an `answer_agent` call went, for the answering agent. */
export type AgentAnswerAck = { ok: true } | { ok: false; error: string };

/** `implementor of #12`, `planner`: a run in words. */
export function describeConversationParty(party: ConversationParty): string {
  return party.workItemID === null ? party.role : `${party.role} of #${party.workItemID}`;
}
