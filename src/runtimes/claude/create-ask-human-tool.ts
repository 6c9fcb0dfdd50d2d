import {
  createSdkMcpServer,
  type HookCallback,
  type McpSdkServerConfigWithInstance,
  type SdkMcpToolDefinition,
  tool,
} from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { CONVERSATION_TOOLS, CONVERSATION_TOOLS_INSTRUCTIONS } from './create-conversation-tools.ts';
import { NOTE_TOOLS, NOTE_TOOLS_INSTRUCTIONS } from './create-note-tools.ts';
import { FLOTILLA_MCP_SERVER } from './flotilla-mcp-server.ts';

const SERVER_NAME = FLOTILLA_MCP_SERVER;
/** The name the model calls the tool by (agent definitions list it; hooks match it). */
export const ASK_HUMAN_TOOL = `mcp__${SERVER_NAME}__ask_human`;

/** What the agent's prompt says about the tool (appended to every role's agent definition). */
export const ASK_HUMAN_INSTRUCTIONS = [
  '## Asking a human',
  `If you cannot go on without a decision or information only a human has, call the \`${ASK_HUMAN_TOOL}\` tool`,
  'with your questions (each one self-contained). The session then pauses; it continues with their answers',
  'as the next message. Ask only what you cannot find out from the repository and the task.',
].join('\n');

/** The tool result the agent sees; the session ends right after it (see the PostToolUse hook). */
const ASKED_RESULT =
  'Your questions were sent to a human. This session pauses now and continues with their answers as the next message.';

const SUBAGENT_REFUSAL =
  'Blocked: only the main agent may ask a human; report what you need to it in your answer instead.';

export interface AskHumanTool {
  /** The `mcpServers` entry for `query()`. */
  mcpServers: Record<string, McpSdkServerConfigWithInstance>;
  /** A PostToolUse hook for ASK_HUMAN_TOOL that ends the session once the questions are recorded. */
  stopAfterAsking: HookCallback;
  /**
   * A PreToolUse hook for ASK_HUMAN_TOOL that refuses a subagent's call (Agent tool): only the run's own
   * agent may pause the run; a subagent reports what it needs to it instead.
   */
  refuseSubagents: HookCallback;
  /** The questions of the latest call in this run, or null when the agent did not ask through the tool. */
  asked(): string[] | null;
  /** Forgets earlier questions (a new round of the same run). */
  reset(): void;
}

/**
 * The `ask_human` tool (issue 13): a second way for a Claude agent to ask, beside `outcome: 'questions'` in
 * its structured output. The tool records the questions and answers with a plain tool result; a PostToolUse
 * hook then returns `continue: false`, so the CLI ends the session without another model request (the
 * session's result has no structured output, and the adapter reports the recorded questions instead).
 *
 * Why the answers come as the next user message and not as this tool's result: the SDK resumes a session
 * from its persisted conversation in a new CLI process, so a call still pending when the first process ended
 * could not be answered by the second one. A finished call with a normal result keeps the conversation
 * valid (every tool_use has its tool_result), and the resume adds the answers as the next user message
 * (`buildAnswersPrompt`), exactly as after a structured-output question.
 */
export function createAskHumanTool(
  /** Further tools of the same server (Flotilla's note tools, create-note-tools.ts). */
  moreTools: readonly SdkMcpToolDefinition[] = [],
): AskHumanTool {
  let asked: string[] | null = null;
  const askHuman = tool(
    'ask_human',
    'Ask a human questions you cannot answer yourself; the session pauses until they answer.',
    {
      questions: z
        .array(z.string().trim().min(1))
        .min(1)
        .describe('Each question on its own, self-contained.'),
    },
    async ({ questions }) => {
      asked = questions;
      return { content: [{ type: 'text', text: ASKED_RESULT }] };
    },
    { alwaysLoad: true },
  );
  return {
    mcpServers: {
      [SERVER_NAME]: createSdkMcpServer({
        name: SERVER_NAME,
        tools: [askHuman as unknown as SdkMcpToolDefinition, ...moreTools],
      }),
    },
    stopAfterAsking: async (input) => {
      if (input.hook_event_name !== 'PostToolUse' || asked === null) return {};
      return { continue: false, stopReason: 'The agent asked a human; waiting for the answers.' };
    },
    refuseSubagents: async (input) =>
      input.hook_event_name === 'PreToolUse' && input.agent_id !== undefined
        ? { decision: 'block', reason: SUBAGENT_REFUSAL }
        : {},
    asked: () => asked,
    reset: () => {
      asked = null;
    },
  };
}

/**
 * The role's agent definition with the tool offered and explained, and Flotilla's note and conversation
 * tools beside it
 * (each left out when the definition disallows it): an inline agent with a `tools` list drops
 * every tool it does not name (as it drops StructuredOutput, docs/claude-sdk-facts.md §Structured output), so the tool is added to
 * the list; an agent file that disallows it keeps it out (and its prompt does not mention it).
 */
export function withAskHumanTool<
  Definition extends { tools?: string[]; disallowedTools?: string[]; prompt: string },
>(definition: Definition): Definition {
  const disallowed = new Set(definition.disallowedTools ?? []);
  const asks = !disallowed.has(ASK_HUMAN_TOOL);
  const notes = NOTE_TOOLS.filter((name) => !disallowed.has(name));
  // The conversation tools go together: asking without answering (or the reverse) would leave agents waiting.
  const converses = CONVERSATION_TOOLS.every((name) => !disallowed.has(name));
  const offered = [...(asks ? [ASK_HUMAN_TOOL] : []), ...notes, ...(converses ? CONVERSATION_TOOLS : [])];
  if (offered.length === 0) return definition;
  const instructions = [
    ...(asks ? [ASK_HUMAN_INSTRUCTIONS] : []),
    ...(notes.length > 0 ? [NOTE_TOOLS_INSTRUCTIONS] : []),
    ...(converses ? [CONVERSATION_TOOLS_INSTRUCTIONS] : []),
  ].join('\n\n');
  return {
    ...definition,
    ...(definition.tools !== undefined && { tools: [...definition.tools, ...offered] }),
    prompt: `${definition.prompt}\n\n${instructions}\n`,
  };
}
