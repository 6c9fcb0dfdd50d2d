import { z } from 'zod';
import {
  type AgentAnswerAck,
  type AgentAskReply,
  type AgentAskRequest,
  type IncomingAgentQuestion,
  AGENT_CONVERSATION_LIMITS as LIMITS,
} from '../../domain/index.ts';
import { formatZodIssues } from '../../shared/format-zod-issues.ts';

const text = (max: number) =>
  z
    .string({ error: 'expected a string' })
    .trim()
    .min(1, 'expected a non-empty text')
    .max(max, `at most ${max} characters`);

/**
 * The conversation tools every agent gets (issue #28 §3), by the name agents call them: the same inputs on
 * every runtime (the Claude SDK's MCP tools, `flotilla agent ask|answer|check-messages|listen`).
 */
export const CONVERSATION_TOOL_INPUTS = {
  ask_agent: z.strictObject({
    to: text(LIMITS.target).describe('the work item id of the agent to ask (e.g. "12"), or "planner"'),
    question: text(LIMITS.question).describe('the question, self-contained'),
    timeoutSeconds: z
      .number({ error: 'expected a number of seconds' })
      .int('expected whole seconds')
      .min(1, 'at least 1 second')
      .max(LIMITS.maxTimeoutSeconds, `at most ${LIMITS.maxTimeoutSeconds} seconds`)
      .optional()
      .describe(`how long to wait for the answer (default ${LIMITS.defaultTimeoutSeconds} s)`),
  }),
  answer_agent: z.strictObject({
    conversationId: text(100).describe('the id the question came with'),
    answer: text(LIMITS.answer).describe('your answer, self-contained'),
  }),
  check_messages: z.strictObject({}),
} as const;

export type ConversationToolName = keyof typeof CONVERSATION_TOOL_INPUTS;

export const CONVERSATION_TOOL_NAMES = Object.keys(CONVERSATION_TOOL_INPUTS) as ConversationToolName[];

export const CONVERSATION_TOOL_DESCRIPTIONS: Record<ConversationToolName, string> = {
  ask_agent:
    'Ask another agent that is running now (by its work item id, or "planner") a question, and wait for its ' +
    'answer. You get the answer, or at once why there is none (it is not running; it is waiting on you).',
  answer_agent:
    'Answer a question another agent asked you (the conversation id comes with the question). It is waiting.',
  check_messages: 'List the questions other agents asked you that are still waiting for your answer.',
};

type Parse<Value> = { ok: true; value: Value } | { ok: false; error: string };

/** Validates an `ask_agent` call (untrusted input); errors name the field and what was expected. */
export function parseAgentAsk(input: unknown): Parse<AgentAskRequest> {
  const parsed = CONVERSATION_TOOL_INPUTS.ask_agent.safeParse(input);
  if (!parsed.success)
    return { ok: false, error: `ask_agent: ${formatZodIssues(parsed.error.issues).join('; ')}` };
  const { to, question, timeoutSeconds } = parsed.data;
  return {
    ok: true,
    value: {
      to: to.replace(/^#/, ''),
      question,
      timeoutSeconds: timeoutSeconds ?? LIMITS.defaultTimeoutSeconds,
    },
  };
}

/** Validates an `answer_agent` call (untrusted input). */
export function parseAgentAnswer(input: unknown): Parse<{ conversationID: string; answer: string }> {
  const parsed = CONVERSATION_TOOL_INPUTS.answer_agent.safeParse(input);
  if (!parsed.success)
    return { ok: false, error: `answer_agent: ${formatZodIssues(parsed.error.issues).join('; ')}` };
  return { ok: true, value: { conversationID: parsed.data.conversationId, answer: parsed.data.answer } };
}

/** The engine's side of a run's conversations: where its agent's asks and answers go. */
export interface ConversationBrokerLink {
  /** Resolves when the ask ends: the answer, or why there is none (never rejects). */
  ask(request: AgentAskRequest): Promise<AgentAskReply>;
  answer(conversationID: string, answer: string): AgentAnswerAck;
}

/**
 * A run's conversations as its runtime exposes them (AgentRunHandle.conversations): the engine connects its
 * broker once the run started, delivers the questions asked of this agent, and withdraws those that no
 * longer wait (timed out, the asker stopped).
 */
export interface AgentConversationPort {
  /** Asks the agent made before this wait for it. */
  connect(broker: ConversationBrokerLink): void;
  deliverQuestion(question: IncomingAgentQuestion): void;
  withdrawQuestion(conversationID: string): void;
}

/** What the asking agent reads as the tool's result. */
export function formatAskReply(reply: AgentAskReply): string {
  return reply.status === 'answered'
    ? `Answer (conversation ${reply.conversationID}): ${reply.text}`
    : `No answer (${reply.status}, conversation ${reply.conversationID}): ${reply.text}`;
}

/** A question for this agent, as it is shown to it (pushed into its session, or by check_messages). */
export function formatIncomingQuestion(question: IncomingAgentQuestion, answerWith: string): string {
  return [
    `Question from another agent (the ${question.from}), conversation ${question.conversationID}:`,
    question.question,
    '',
    `It waits for your answer: call ${answerWith} with conversationId "${question.conversationID}" and your ` +
      'answer, then go on with your own work.',
  ].join('\n');
}
