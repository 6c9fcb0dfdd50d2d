import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from '../shared/is-record.ts';

/** One `tool_result` block, flattened to text. */
export interface ToolResultView {
  toolUseId: string;
  text: string;
  isError: boolean;
}

/**
 * What routing, expectations and templates need to know about one conversation request: `POST /v1/messages`
 * (built here) or `POST /v1/responses` (built by `buildResponsesRequestView`).
 */
export interface RequestView {
  /** Which API the request came in on: Anthropic Messages or OpenAI Responses. */
  api: 'messages' | 'responses' | 'generate-content';
  /** The parsed JSON body, as received. */
  body: Record<string, unknown>;
  model: string | undefined;
  stream: boolean;
  /** All `system` text blocks joined with newlines (billing block, SDK line, systemPrompt / agent prompt). */
  system: string;
  /** Text of the first `role:'user'` message (text blocks joined with newlines). */
  firstUser: string;
  /** Text of the last `role:'user'` message, tool_result contents included. */
  lastUser: string;
  /** Tool results of the latest user message that carries any (several for parallel tool calls). */
  latestToolResults: ToolResultView[];
  /** The very last `tool_result` block of the conversation. */
  lastToolResult: ToolResultView | undefined;
  /** Every text, tool input and tool result of `messages`, joined with newlines. */
  messagesText: string;
  toolNames: string[];
  /**
   * Number of `role:'assistant'` messages already in the request: the step index. The placeholder the CLI
   * inserts when it resumes a session that ended on a tool result ("No response requested.") is no model
   * reply and is not counted, so a resumed session's next request gets the route's next step.
   */
  assistantTurns: number;
  /** The billing block says `cc_is_subagent=true` (a subagent started through the Agent tool). */
  isSubagent: boolean;
  /** No tools, or `output_config.format` present: a side request (session title, …) that uses no step. */
  isSide: boolean;
  /** `output_config.format.schema` of a side request, if any. */
  sideSchema: unknown;
  /** The JSON schema the final answer must match (Responses: `text.format.schema`), if any. */
  outputSchema: unknown;
  /** The `x-claude-code-session-id` header. */
  sessionId: string | undefined;
  /** The "Primary working directory" the CLI reports in its environment block, if present. */
  cwd: string | undefined;
}

type UnknownRecord = Record<string, unknown>;

/** Builds the view of a Messages API request body (tolerant: missing or odd fields give empty values). */
export function buildRequestView(body: UnknownRecord, headers: IncomingHttpHeaders = {}): RequestView {
  const messages = asArray(body.messages).filter(isRecord);
  const userMessages = messages.filter((message) => message.role === 'user');
  const system = systemText(body.system);
  const tools = asArray(body.tools).filter(isRecord);
  const outputConfig = isRecord(body.output_config) ? body.output_config : undefined;
  const format =
    outputConfig !== undefined && isRecord(outputConfig.format) ? outputConfig.format : undefined;
  const allToolResults = messages.flatMap((message) => toolResultsOf(message.content));
  const latestWithResults = [...userMessages]
    .reverse()
    .find((message) => toolResultsOf(message.content).length > 0);
  const messagesText = messages.map((message) => contentText(message.content, true)).join('\n');
  const sessionHeader = headers['x-claude-code-session-id'];
  return {
    api: 'messages',
    body,
    model: typeof body.model === 'string' ? body.model : undefined,
    stream: body.stream === true,
    system,
    firstUser: userMessages[0] === undefined ? '' : contentText(userMessages[0].content, false),
    lastUser: userMessages.at(-1) === undefined ? '' : contentText(userMessages.at(-1)?.content, false),
    latestToolResults: latestWithResults === undefined ? [] : toolResultsOf(latestWithResults.content),
    lastToolResult: allToolResults.at(-1),
    messagesText,
    toolNames: tools.map((tool) => tool.name).filter((name): name is string => typeof name === 'string'),
    assistantTurns: messages.filter(
      (message) => message.role === 'assistant' && !isResumePlaceholder(message.content),
    ).length,
    isSubagent: system.includes('cc_is_subagent=true'),
    isSide: tools.length === 0 || format !== undefined,
    sideSchema: format?.schema,
    outputSchema: undefined,
    sessionId: typeof sessionHeader === 'string' ? sessionHeader : undefined,
    cwd: findCwd(`${system}\n${messagesText}`),
  };
}

/** Text the CLI (2.1.330) gives the synthetic assistant turn it adds when resuming after a tool result. */
const RESUME_PLACEHOLDER_TEXT = 'No response requested.';

function isResumePlaceholder(content: unknown): boolean {
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : asArray(content);
  return (
    blocks.length === 1 &&
    isRecord(blocks[0]) &&
    blocks[0].type === 'text' &&
    blocks[0].text === RESUME_PLACEHOLDER_TEXT
  );
}

function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  return asArray(system)
    .map((block) => (isRecord(block) && typeof block.text === 'string' ? block.text : ''))
    .join('\n');
}

/** Text of a message's content; tool_result text is included, tool_use inputs only when `withToolUse`. */
function contentText(content: unknown, withToolUse: boolean): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((block) => {
      if (!isRecord(block)) return '';
      if (block.type === 'text' && typeof block.text === 'string') return block.text;
      if (block.type === 'tool_result') return toolResultText(block.content);
      if (block.type === 'tool_use' && withToolUse)
        return `${String(block.name)} ${JSON.stringify(block.input)}`;
      return '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

function toolResultsOf(content: unknown): ToolResultView[] {
  return asArray(content)
    .filter(isRecord)
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({
      toolUseId: typeof block.tool_use_id === 'string' ? block.tool_use_id : '',
      text: toolResultText(block.content),
      isError: block.is_error === true,
    }));
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((block) => (isRecord(block) && typeof block.text === 'string' ? block.text : ''))
    .join('\n');
}

function findCwd(text: string): string | undefined {
  const match = /Primary working directory: ([^\n]+)/.exec(text);
  return match?.[1]?.trim();
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
