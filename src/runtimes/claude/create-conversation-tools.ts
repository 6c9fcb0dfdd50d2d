import { type SdkMcpToolDefinition, tool } from '@anthropic-ai/claude-agent-sdk';
import {
  CONVERSATION_TOOL_DESCRIPTIONS,
  CONVERSATION_TOOL_INPUTS,
  CONVERSATION_TOOL_NAMES,
  formatIncomingQuestion,
} from '../../engine/runtime-contract/index.ts';
import type { AgentConversations } from '../shared/create-agent-conversations.ts';
import { FLOTILLA_MCP_SERVER } from './flotilla-mcp-server.ts';

/** The names the model calls them by (`mcp__flotilla__ask_agent`, …). */
export const CONVERSATION_TOOLS: readonly string[] = CONVERSATION_TOOL_NAMES.map(
  (name) => `mcp__${FLOTILLA_MCP_SERVER}__${name}`,
);

export const ANSWER_AGENT_TOOL = `mcp__${FLOTILLA_MCP_SERVER}__answer_agent`;

/** What the agent's prompt says about them (appended to every role's agent definition). */
export const CONVERSATION_TOOLS_INSTRUCTIONS = [
  '## Other agents',
  'Other agents may be working beside you (on other work items, or the planner). You can ask each other:',
  ...CONVERSATION_TOOL_NAMES.map(
    (name) => `- \`mcp__${FLOTILLA_MCP_SERVER}__${name}\`: ${CONVERSATION_TOOL_DESCRIPTIONS[name]}`,
  ),
  'A question for you arrives as a message while you work: answer it right away with',
  `\`${ANSWER_AGENT_TOOL}\`, then go on with your own work.`,
].join('\n');

const text = (value: string, isError = false) => ({
  content: [{ type: 'text' as const, text: value }],
  ...(isError && { isError: true }),
});

/**
 * The conversation tools of the in-process MCP server (issue #28 §3): `ask_agent` waits in its handler for
 * the engine's answer (the session goes on when it comes), `answer_agent` and `check_messages` answer at once.
 */
export function createConversationTools(conversations: AgentConversations): SdkMcpToolDefinition[] {
  const askAgent = tool(
    'ask_agent',
    CONVERSATION_TOOL_DESCRIPTIONS.ask_agent,
    CONVERSATION_TOOL_INPUTS.ask_agent.shape,
    async (input) => {
      const reply = await conversations.ask(input);
      return text(reply, reply.startsWith('Refused:'));
    },
    { alwaysLoad: true },
  );
  const answerAgent = tool(
    'answer_agent',
    CONVERSATION_TOOL_DESCRIPTIONS.answer_agent,
    CONVERSATION_TOOL_INPUTS.answer_agent.shape,
    async (input) => {
      const reply = conversations.answer(input);
      return text(reply.text, !reply.ok);
    },
    { alwaysLoad: true },
  );
  const checkMessages = tool(
    'check_messages',
    CONVERSATION_TOOL_DESCRIPTIONS.check_messages,
    CONVERSATION_TOOL_INPUTS.check_messages.shape,
    async () => {
      const pending = conversations.pending();
      return text(
        pending.length === 0
          ? 'No questions are waiting for you.'
          : pending.map((question) => formatIncomingQuestion(question, ANSWER_AGENT_TOOL)).join('\n\n'),
      );
    },
    { alwaysLoad: true },
  );
  return [askAgent, answerAgent, checkMessages] as unknown as SdkMcpToolDefinition[];
}
