import type { SessionLogMessage } from './session-log-message.ts';

/** Long texts (a huge tool output, a raw unknown message) are cut: the transcript is for reading. */
const MAX_TEXT_CHARS = 4_000;
const MAX_TOOL_RESULT_CHARS = 200;

/**
 * The transcript entry for one SDK message (reference-behaviour §9): `[HH:MM:SS] KIND …` lines, details
 * indented by two spaces. Returns null for messages not worth a line (partial stream events).
 */
export function formatSessionMessage(message: SessionLogMessage, at: number): string | null {
  const stamp = `[${new Date(at).toISOString().slice(11, 19)}]`;
  switch (message.type) {
    case 'system':
      return formatSystem(stamp, message);
    case 'assistant':
      return formatAssistant(stamp, message);
    case 'user':
      return formatUser(stamp, message);
    case 'result':
      return formatResult(stamp, message);
    case 'stream_event':
      return null;
    default:
      return `${stamp} UNKNOWN ${message.type}\n${indent(truncate(safeJson(message), MAX_TEXT_CHARS))}`;
  }
}

function formatSystem(stamp: string, message: SessionLogMessage): string {
  const subtype = stringField(message, 'subtype') ?? 'unknown';
  if (subtype !== 'init') return `${stamp} SYSTEM ${subtype}`;
  const tools = Array.isArray(message.tools) ? message.tools.filter((tool) => typeof tool === 'string') : [];
  return [
    `${stamp} SYSTEM init`,
    `  Model: ${stringField(message, 'model') ?? 'unknown'}`,
    `  CWD: ${stringField(message, 'cwd') ?? 'unknown'}`,
    `  Tools: ${tools.length > 0 ? tools.join(', ') : '(none)'}`,
  ].join('\n');
}

/** One entry per content block: text indented, tool calls by name only. */
function formatAssistant(stamp: string, message: SessionLogMessage): string {
  const blocks = contentBlocks(message);
  if (blocks.length === 0) return `${stamp} ASSISTANT (no content)`;
  return blocks
    .map((block) => {
      switch (block.type) {
        case 'text':
          return `${stamp} ASSISTANT\n${indent(truncate(stringField(block, 'text') ?? '', MAX_TEXT_CHARS))}`;
        case 'tool_use':
          return `${stamp} ASSISTANT [tool_use] ${stringField(block, 'name') ?? 'unknown'}`;
        case 'thinking':
          return `${stamp} ASSISTANT [thinking] (${(stringField(block, 'thinking') ?? '').length} chars)`;
        default:
          return `${stamp} ASSISTANT [${String(block.type)}]`;
      }
    })
    .join('\n');
}

/** Tool results are summarised (status and first line); other user content is shown like assistant text. */
function formatUser(stamp: string, message: SessionLogMessage): string {
  const inner = recordField(message, 'message');
  if (typeof inner?.content === 'string')
    return `${stamp} USER\n${indent(truncate(inner.content, MAX_TEXT_CHARS))}`;
  const blocks = contentBlocks(message);
  if (blocks.length === 0) return `${stamp} USER (no content)`;
  return blocks
    .map((block) => {
      if (block.type === 'tool_result') {
        const status = block.is_error === true ? 'error' : 'ok';
        return `${stamp} USER [tool_result] ${status}: ${summarise(toolResultText(block.content))}`;
      }
      if (block.type === 'text') {
        return `${stamp} USER\n${indent(truncate(stringField(block, 'text') ?? '', MAX_TEXT_CHARS))}`;
      }
      return `${stamp} USER [${String(block.type)}]`;
    })
    .join('\n');
}

function formatResult(stamp: string, message: SessionLogMessage): string {
  const usage = recordField(message, 'usage');
  const lines = [
    `${stamp} RESULT ${stringField(message, 'subtype') ?? 'unknown'}`,
    `  Duration: ${formatNumber(numberField(message, 'duration_ms'), (ms) => `${(ms / 1000).toFixed(1)}s`)}`,
    `  Cost: ${formatNumber(numberField(message, 'total_cost_usd'), (usd) => `$${usd.toFixed(4)}`)}`,
    `  Turns: ${formatNumber(numberField(message, 'num_turns'), String)}`,
    `  Tokens: ${formatNumber(numberField(usage, 'input_tokens'), String)} in / ${formatNumber(numberField(usage, 'output_tokens'), String)} out`,
  ];
  if (message.is_error === true) lines.push('  Error: yes');
  if (Array.isArray(message.errors)) {
    for (const error of message.errors) lines.push(`  ${truncate(String(error), MAX_TEXT_CHARS)}`);
  }
  if (message.structured_output !== undefined) {
    lines.push(`  Structured output: ${truncate(safeJson(message.structured_output), MAX_TEXT_CHARS)}`);
  }
  return lines.join('\n');
}

type Block = Record<string, unknown> & { type?: unknown };

function contentBlocks(message: SessionLogMessage): Block[] {
  const content = recordField(message, 'message')?.content;
  return Array.isArray(content) ? content.filter((block): block is Block => isRecord(block)) : [];
}

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      isRecord(part) && part.type === 'text' && typeof part.text === 'string'
        ? part.text
        : `[${isRecord(part) ? String(part.type) : 'content'}]`,
    )
    .join('\n');
}

/** First non-empty line, cut to a readable length, with the size of what was left out. */
function summarise(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '(empty)';
  const lines = trimmed.split('\n');
  const first = lines[0] ?? '';
  const shown = first.length > MAX_TOOL_RESULT_CHARS ? `${first.slice(0, MAX_TOOL_RESULT_CHARS)}…` : first;
  return lines.length > 1 ? `${shown} (+${lines.length - 1} more lines)` : shown;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more chars)` : text;
}

function formatNumber(value: number | undefined, format: (value: number) => string): string {
  return value === undefined ? 'unknown' : format(value);
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function recordField(value: unknown, key: string): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const field = value[key];
  return isRecord(field) ? field : undefined;
}

function stringField(value: unknown, key: string): string | undefined {
  if (!isRecord(value)) return undefined;
  const field = value[key];
  return typeof field === 'string' ? field : undefined;
}

function numberField(value: unknown, key: string): number | undefined {
  if (!isRecord(value)) return undefined;
  const field = value[key];
  return typeof field === 'number' && Number.isFinite(field) ? field : undefined;
}
