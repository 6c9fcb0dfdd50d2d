import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from '../shared/is-record.ts';
import type { RequestView, ToolResultView } from './request-view.ts';

type UnknownRecord = Record<string, unknown>;

/** The context block gemini-cli (0.61) writes as the first part of the first user message. */
const SESSION_CONTEXT = /^<session_context>[\s\S]*?<\/session_context>\s*/;

/** gemini-cli reports a failed shell command with this line in its function response. */
const EXIT_CODE_LINE = /^Exit Code: (-?\d+)$/m;

/**
 * Builds the `RequestView` of a Gemini API request (`POST /v1beta/models/<model>:streamGenerateContent`, as
 * gemini-cli sends it) so routing, expectations and templates work as for the other APIs:
 * - `model`: from the path; `stream`: the `streamGenerateContent` method;
 * - `system`: the `systemInstruction` parts' text;
 * - `firstUser`: the first user message without gemini-cli's `<session_context>` block; `cwd`: the first
 *   workspace directory that block names;
 * - `lastUser`: the text and function responses after the latest `role: 'model'` content;
 * - `assistantTurns`: the number of `role: 'model'` contents (one per model reply);
 * - tool results: `functionResponse` parts (`isError`: an `error` field or a non-zero `Exit Code:` line);
 * - `outputSchema`: `generationConfig.responseJsonSchema` (or `responseSchema`); `isSide`: no tools.
 */
export function buildGeminiRequestView(
  body: UnknownRecord,
  path: string,
  headers: IncomingHttpHeaders = {},
): RequestView {
  const contents = asArray(body.contents).filter(isRecord);
  const userContents = contents.filter((content) => content.role !== 'model');
  const lastModelIndex = contents.findLastIndex((content) => content.role === 'model');
  const after = contents.slice(lastModelIndex + 1);
  const responses = contents.flatMap(functionResponses);
  const latestRun = after.flatMap(functionResponses);
  const firstText = userContents[0] === undefined ? '' : partsText(userContents[0]);
  const method = /:(\w+)$/.exec(path)?.[1];
  const config = isRecord(body.generationConfig) ? body.generationConfig : {};
  const tools = asArray(body.tools)
    .filter(isRecord)
    .flatMap((tool) => asArray(tool.functionDeclarations).filter(isRecord));
  const workspace = /Workspace Directories:\*\*\s*\n\s*- (.+)/.exec(firstText)?.[1]?.trim();
  const session = headers['x-gemini-api-privileged-user-id'];
  return {
    api: 'generate-content',
    body,
    model: /\/models\/([^:/]+):/.exec(path)?.[1],
    stream: method === 'streamGenerateContent',
    system: isRecord(body.systemInstruction) ? partsText(body.systemInstruction) : '',
    firstUser: firstText.replace(SESSION_CONTEXT, ''),
    lastUser: after
      .map(contentText)
      .filter((text) => text !== '')
      .join('\n'),
    latestToolResults: latestRun,
    lastToolResult: responses.at(-1),
    messagesText: contents
      .map(contentText)
      .filter((text) => text !== '')
      .join('\n'),
    toolNames: tools.map((tool) => (typeof tool.name === 'string' ? tool.name : '')),
    assistantTurns: contents.filter((content) => content.role === 'model').length,
    isSubagent: false,
    isSide: tools.length === 0,
    sideSchema: config.responseJsonSchema ?? config.responseSchema,
    outputSchema: undefined,
    sessionId: typeof session === 'string' ? session : undefined,
    cwd: workspace,
  };
}

function functionResponses(content: UnknownRecord): ToolResultView[] {
  return asArray(content.parts)
    .filter(isRecord)
    .map((part) => part.functionResponse)
    .filter(isRecord)
    .map((response) => {
      const payload = isRecord(response.response) ? response.response : {};
      const text = responseText(payload);
      const exitCode = EXIT_CODE_LINE.exec(text)?.[1];
      return {
        toolUseId: typeof response.id === 'string' ? response.id : String(response.name ?? ''),
        text,
        isError: payload.error !== undefined || (exitCode !== undefined && exitCode !== '0'),
      };
    });
}

function responseText(payload: UnknownRecord): string {
  if (typeof payload.output === 'string') return payload.output;
  if (typeof payload.error === 'string') return payload.error;
  return JSON.stringify(payload);
}

/** Text parts, function calls (`name args`) and function responses of one content. */
function contentText(content: UnknownRecord): string {
  return asArray(content.parts)
    .filter(isRecord)
    .map((part) => {
      if (part.thought === true) return '';
      if (typeof part.text === 'string') return part.text;
      if (isRecord(part.functionCall))
        return `${String(part.functionCall.name)} ${JSON.stringify(part.functionCall.args ?? {})}`;
      if (isRecord(part.functionResponse))
        return responseText(isRecord(part.functionResponse.response) ? part.functionResponse.response : {});
      return '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

function partsText(content: UnknownRecord): string {
  return asArray(content.parts)
    .filter(isRecord)
    .map((part) => (typeof part.text === 'string' && part.thought !== true ? part.text : ''))
    .filter((text) => text !== '')
    .join('\n');
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
