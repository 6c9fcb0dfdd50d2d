import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from '../shared/is-record.ts';
import type { RequestView, ToolResultView } from './request-view.ts';

type UnknownRecord = Record<string, unknown>;

/** Items the model produced (echoed back by the client, which sends the whole history: `store: false`). */
const MODEL_ITEM_TYPES = new Set([
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'reasoning',
  'web_search_call',
]);

/** What a tool answered; a run of these (or a user message) separates two model turns. */
const TOOL_OUTPUT_TYPES = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
]);

/**
 * User messages the codex harness writes itself (environment, AGENTS.md, skills): they are context, not
 * the prompt, so `firstUser` skips them.
 */
const HARNESS_USER_PREFIXES = ['<environment_context>', '<user_instructions>', '# AGENTS.md instructions'];

/**
 * Developer text codex writes itself (its base prompt, skills, sandbox permissions). `system` puts it after
 * the rest (`instructions`, `developer_instructions`), so a "no route" refusal quotes the agent's own prompt.
 */
const HARNESS_DEVELOPER_PREFIXES = [
  'You are a coding agent running in the Codex CLI',
  '<skills_instructions>',
  '<permissions instructions>',
  '<collaboration_mode>',
];

/** codex (0.163) reports a finished `exec_command` with this line in its output. */
const EXIT_CODE_LINE = /^Process exited with code (-?\d+)$/m;

/**
 * Builds the `RequestView` of an OpenAI Responses API request (`POST /v1/responses`, as the codex binary
 * sends it) so routing, expectations and templates work as for the Messages API:
 * - `system`: `instructions` plus every `role:'developer'`/`'system'` message, codex's own text last;
 * - `firstUser`: the first user message that is not harness context (`<environment_context>`, AGENTS.md);
 * - `lastUser`: everything after the latest model item (tool outputs, or a new user message);
 * - `assistantTurns`: the number of runs of model items (assistant messages, function calls, reasoning) in
 *   `input` — a reply with text and parallel calls is one run, its tool outputs end it;
 * - tool results: `function_call_output` items (`isError`: a non-zero "Process exited with code" line);
 * - `outputSchema`: `text.format.schema` (structured output); `sessionId`: the `session-id` header;
 *   `cwd`: `<cwd>` of the environment context.
 */
export function buildResponsesRequestView(
  body: UnknownRecord,
  headers: IncomingHttpHeaders = {},
): RequestView {
  // `input` may also be a plain string: one user message.
  const input =
    typeof body.input === 'string'
      ? [{ type: 'message', role: 'user', content: body.input }]
      : asArray(body.input).filter(isRecord);
  const messages = input.filter((item) => item.type === 'message' || item.type === undefined);
  const userMessages = messages.filter((item) => item.role === 'user');
  const promptMessages = userMessages.filter((item) => !isHarnessContext(contentText(item.content)));
  const contextParts = messages
    .filter((item) => item.role === 'developer' || item.role === 'system')
    .flatMap((item) => contentParts(item.content));
  const instructions = typeof body.instructions === 'string' ? body.instructions : '';
  const system = [
    instructions,
    ...contextParts.filter((text) => !isHarnessDeveloperText(text)),
    ...contextParts.filter(isHarnessDeveloperText),
  ]
    .filter((text) => text !== '')
    .join('\n');
  const outputs = input.filter((item) => TOOL_OUTPUT_TYPES.has(String(item.type))).map(toToolResult);
  const lastModelIndex = input.findLastIndex(isModelItem);
  const afterLastReply = input.slice(lastModelIndex + 1).filter((item) => item.role !== 'developer');
  const latestToolResults = latestOutputRun(input).map(toToolResult);
  const format = isRecord(body.text) && isRecord(body.text.format) ? body.text.format : undefined;
  const environment = userMessages.map((item) => contentText(item.content)).join('\n');
  const sessionHeader = headers['session-id'];
  return {
    api: 'responses',
    body,
    model: typeof body.model === 'string' ? body.model : undefined,
    stream: body.stream === true,
    system,
    firstUser: promptMessages[0] === undefined ? '' : contentText(promptMessages[0].content),
    lastUser: afterLastReply
      .map(itemText)
      .filter((text) => text !== '')
      .join('\n'),
    latestToolResults,
    lastToolResult: outputs.at(-1),
    messagesText: input
      .filter((item) => !(item.role === 'developer' || item.role === 'system'))
      .map(itemText)
      .filter((text) => text !== '')
      .join('\n'),
    toolNames: asArray(body.tools).filter(isRecord).map(toolName),
    assistantTurns: countModelRuns(input),
    isSubagent: false,
    isSide: false,
    sideSchema: undefined,
    outputSchema: format?.type === 'json_schema' ? format.schema : undefined,
    sessionId: typeof sessionHeader === 'string' ? sessionHeader : undefined,
    cwd: /<cwd>([^<]+)<\/cwd>/.exec(environment)?.[1]?.trim(),
  };
}

function isModelItem(item: UnknownRecord): boolean {
  if (item.type === 'message' || item.type === undefined) return item.role === 'assistant';
  return MODEL_ITEM_TYPES.has(String(item.type));
}

/** Runs of consecutive model items: one per model reply already in the conversation. */
function countModelRuns(input: UnknownRecord[]): number {
  let runs = 0;
  let inRun = false;
  for (const item of input) {
    const model = isModelItem(item);
    if (model && !inRun) runs += 1;
    inRun = model;
  }
  return runs;
}

/** The tool outputs after the last model run (the answers to the latest parallel calls). */
function latestOutputRun(input: UnknownRecord[]): UnknownRecord[] {
  const run: UnknownRecord[] = [];
  for (const item of [...input].reverse()) {
    if (TOOL_OUTPUT_TYPES.has(String(item.type))) run.unshift(item);
    else if (run.length > 0 || isModelItem(item)) break;
  }
  return run;
}

function toToolResult(item: UnknownRecord): ToolResultView {
  const text = outputText(item.output);
  const exitCode = EXIT_CODE_LINE.exec(text)?.[1];
  return {
    toolUseId: typeof item.call_id === 'string' ? item.call_id : '',
    text,
    isError: exitCode !== undefined && exitCode !== '0',
  };
}

function itemText(item: UnknownRecord): string {
  if (item.type === 'message' || item.type === undefined) return contentText(item.content);
  if (item.type === 'function_call') return `${String(item.name)} ${String(item.arguments)}`;
  if (item.type === 'custom_tool_call') return `${String(item.name)} ${String(item.input)}`;
  if (TOOL_OUTPUT_TYPES.has(String(item.type))) return outputText(item.output);
  return '';
}

/** Text of a message's content (`input_text`, `output_text`, plain strings). */
function contentText(content: unknown): string {
  return contentParts(content).join('\n');
}

function contentParts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  return asArray(content)
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text !== '');
}

function isHarnessDeveloperText(text: string): boolean {
  return HARNESS_DEVELOPER_PREFIXES.some((prefix) => text.startsWith(prefix));
}

/** A tool output is a string or a list of content parts. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output) && typeof output.content === 'string') return output.content;
  return contentText(output);
}

function isHarnessContext(text: string): boolean {
  const trimmed = text.trimStart();
  return HARNESS_USER_PREFIXES.some((prefix) => trimmed.startsWith(prefix));
}

/** Function tools by name, namespaces by theirs, built-ins (`web_search`) by type. */
function toolName(tool: UnknownRecord): string {
  if (typeof tool.name === 'string') return tool.name;
  return typeof tool.type === 'string' ? tool.type : '';
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
