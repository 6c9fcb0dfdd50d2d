import { type SdkMcpToolDefinition, tool } from '@anthropic-ai/claude-agent-sdk';
import {
  AGENT_TOOL_DESCRIPTIONS,
  AGENT_TOOL_INPUTS,
  AGENT_TOOL_NAMES,
  type AgentNoteParse,
  type AgentToolName,
} from '../../engine/runtime-contract/index.ts';
import { FLOTILLA_MCP_SERVER } from './flotilla-mcp-server.ts';

/** The names the model calls Flotilla's note tools by (`mcp__flotilla__store_memory`, …). */
export const NOTE_TOOLS: readonly string[] = AGENT_TOOL_NAMES.map(
  (name) => `mcp__${FLOTILLA_MCP_SERVER}__${name}`,
);

/** What the agent's prompt says about them (appended to every role's agent definition). */
export const NOTE_TOOLS_INSTRUCTIONS = [
  "## Flotilla's tools",
  'While you work you can record notes; none of them stops your work:',
  ...AGENT_TOOL_NAMES.map(
    (name) => `- \`mcp__${FLOTILLA_MCP_SERVER}__${name}\`: ${AGENT_TOOL_DESCRIPTIONS[name]}`,
  ),
].join('\n');

const RECORDED: Record<AgentToolName, string> = {
  store_memory: 'Memory stored; later agents on this repository will see it.',
  record_decision: 'Decision recorded.',
  log_question: 'Question logged for a human. Carry on with your best assumption.',
  update_summary: 'Summary updated.',
};

/**
 * The note tools of the in-process MCP server (issue #28 §2): each call is validated (the SDK checks the
 * input against the tool's schema; `record` checks it again, with the role's rules) and recorded for the
 * engine; a refused call answers the model with what was wrong, and the session goes on.
 */
export function createNoteTools(
  record: (tool: AgentToolName, input: unknown) => AgentNoteParse,
): SdkMcpToolDefinition[] {
  const make = <Name extends AgentToolName>(name: Name) =>
    tool(
      name,
      AGENT_TOOL_DESCRIPTIONS[name],
      AGENT_TOOL_INPUTS[name].shape,
      async (input) => {
        const parsed = record(name, input);
        return parsed.ok
          ? { content: [{ type: 'text' as const, text: RECORDED[name] }] }
          : { content: [{ type: 'text' as const, text: `Refused: ${parsed.error}` }], isError: true };
      },
      { alwaysLoad: true },
    ) as unknown as SdkMcpToolDefinition;
  return AGENT_TOOL_NAMES.map(make);
}
