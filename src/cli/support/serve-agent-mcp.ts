import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  AGENT_TOOL_DESCRIPTIONS,
  AGENT_TOOL_INPUTS,
  AGENT_TOOL_NAMES,
  type AgentToolName,
  CONVERSATION_TOOL_DESCRIPTIONS,
  CONVERSATION_TOOL_INPUTS,
  formatIncomingQuestion,
  parseAgentAnswer,
  parseAgentAsk,
  parseAgentToolCall,
} from '../../engine/runtime-contract/index.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { AgentChannel } from './agent-channel-client.ts';

/** The server's name in codex's `mcp_servers` (its tools reach the model as `mcp__flotilla__…`). */
export const AGENT_MCP_SERVER = 'flotilla';

const RECORDED: Record<AgentToolName, string> = {
  store_memory: 'Memory stored; later agents on this repository will see it.',
  record_decision: 'Decision recorded.',
  log_question: 'Question logged for a human. Carry on with your best assumption.',
  update_summary: 'Summary updated.',
};

/** How long past an ask's own timeout the server waits for the run shell's reply (as `flotilla agent ask`). */
const REPLY_GRACE_SECONDS = 30;

const text = (value: string, isError = false) => ({
  content: [{ type: 'text' as const, text: value }],
  ...(isError && { isError: true }),
});

/**
 * Flotilla's tools as a stdio MCP server (issue #28 §2): what codex gets through its `mcp_servers` (the
 * per-run script runs `flotilla agent mcp`, runtimes/codex/build-codex-config-toml.ts). The same tools as
 * the Claude SDK server and the same checks and channel as `flotilla agent <verb>`: each call is validated
 * here (with the role's rules) and appended to the run's notes file, which the run validates again; the
 * conversation tools wait for the run's reply. The server holds no credential and reaches nothing else.
 * Resolves when the client closes stdin.
 */
export async function serveAgentMcp(channel: AgentChannel): Promise<void> {
  const server = new McpServer({ name: AGENT_MCP_SERVER, version: '1' });
  for (const name of AGENT_TOOL_NAMES) {
    server.registerTool(
      name,
      { description: AGENT_TOOL_DESCRIPTIONS[name], inputSchema: AGENT_TOOL_INPUTS[name].shape },
      async (input: Record<string, unknown>) => {
        const parsed = parseAgentToolCall(name, input, channel.role);
        if (!parsed.ok) return text(`Refused: ${parsed.error}`, true);
        channel.append(name, input);
        return text(RECORDED[name]);
      },
    );
  }
  server.registerTool(
    'ask_agent',
    {
      description: CONVERSATION_TOOL_DESCRIPTIONS.ask_agent,
      inputSchema: CONVERSATION_TOOL_INPUTS.ask_agent.shape,
    },
    async (input: Record<string, unknown>) => {
      const parsed = parseAgentAsk(input);
      if (!parsed.ok) return text(`Refused: ${parsed.error}`, true);
      return reply(() => channel.call('ask_agent', input, parsed.value.timeoutSeconds + REPLY_GRACE_SECONDS));
    },
  );
  server.registerTool(
    'answer_agent',
    {
      description: CONVERSATION_TOOL_DESCRIPTIONS.answer_agent,
      inputSchema: CONVERSATION_TOOL_INPUTS.answer_agent.shape,
    },
    async (input: Record<string, unknown>) => {
      const parsed = parseAgentAnswer(input);
      if (!parsed.ok) return text(`Refused: ${parsed.error}`, true);
      return reply(() => channel.call('answer_agent', input, REPLY_GRACE_SECONDS));
    },
  );
  server.registerTool(
    'check_messages',
    {
      description: CONVERSATION_TOOL_DESCRIPTIONS.check_messages,
      inputSchema: CONVERSATION_TOOL_INPUTS.check_messages.shape,
    },
    async () => {
      const pending = channel.readInbox();
      return text(
        pending.length === 0
          ? 'No questions are waiting for you.'
          : pending
              .map((question) => formatIncomingQuestion(question, `the \`answer_agent\` tool`))
              .join('\n\n'),
      );
    },
  );
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // The client (codex) closes stdin when it is done with the server: then the process may end.
  await new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  await server.close();
}

async function reply(call: () => Promise<{ ok: boolean; text: string }>) {
  try {
    const answer = await call();
    return text(answer.text, !answer.ok || answer.text.startsWith('Refused:'));
  } catch (error) {
    return text(messageOf(error), true);
  }
}
