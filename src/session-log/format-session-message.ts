import { isRecord } from '../shared/is-record.ts';
import type { SessionLogMessage } from './session-log-message.ts';

/** Long texts (assistant prose, a raw unknown message) are cut: the transcript is for reading. */
const MAX_TEXT_CHARS = 4_000;
/**
 * A tool call's input is recorded field by field; a long one (Write's content, an Edit's strings) keeps its
 * first lines and says how many were left out. Tool output is recorded whole: the CLI already caps it, and
 * `flotilla logs` shortens it for reading (see shortenTranscript).
 */
const MAX_INPUT_LINES = 20;
const MAX_INPUT_CHARS = 2_000;

/**
 * The transcript entry for one SDK message (docs/reference-behaviour.md §9, extended by issue 15 §7):
 * `[HH:MM:SS] KIND …` lines, details indented by two spaces. Tool calls carry their input (`command: …`,
 * `file_path: …`), tool results their full output. Returns null for messages not worth a line (partial
 * stream events). Secrets are redacted by the session log when the entry is written.
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

/** One entry per content block: text indented, tool calls with their input. */
function formatAssistant(stamp: string, message: SessionLogMessage): string {
  const blocks = contentBlocks(message);
  if (blocks.length === 0) return `${stamp} ASSISTANT (no content)`;
  return blocks
    .map((block) => {
      switch (block.type) {
        case 'text':
          return `${stamp} ASSISTANT\n${indent(truncate(stringField(block, 'text') ?? '', MAX_TEXT_CHARS))}`;
        case 'tool_use': {
          const head = `${stamp} ASSISTANT [tool_use] ${stringField(block, 'name') ?? 'unknown'}`;
          const input = formatToolInput(block.input);
          return input === '' ? head : `${head}\n${indent(input)}`;
        }
        case 'thinking':
          return `${stamp} ASSISTANT [thinking] (${(stringField(block, 'thinking') ?? '').length} chars)`;
        default:
          return `${stamp} ASSISTANT [${String(block.type)}]`;
      }
    })
    .join('\n');
}

/** Tool results in full under their status; other user content is shown like assistant text. */
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
        const output = toolResultText(block.content)
          .trimEnd()
          .replace(/^\s*\n/, '');
        return output.trim() === ''
          ? `${stamp} USER [tool_result] ${status} (empty)`
          : `${stamp} USER [tool_result] ${status}\n${indent(output)}`;
      }
      if (block.type === 'text') {
        return `${stamp} USER\n${indent(truncate(stringField(block, 'text') ?? '', MAX_TEXT_CHARS))}`;
      }
      return `${stamp} USER [${String(block.type)}]`;
    })
    .join('\n');
}

/**
 * `RESULT success`, or `RESULT error (<why>)` when the SDK flags an error: after an API error the subtype can
 * still be `success` (docs/claude-sdk-facts.md §Results and errors), so the flag and `terminal_reason` decide, not the subtype.
 */
function formatResult(stamp: string, message: SessionLogMessage): string {
  const usage = recordField(message, 'usage');
  const subtype = stringField(message, 'subtype') ?? 'unknown';
  const failed = message.is_error === true;
  const why = stringField(message, 'terminal_reason') ?? subtype;
  const lines = [
    `${stamp} RESULT ${failed ? `error (${why})` : subtype}`,
    `  Duration: ${formatNumber(numberField(message, 'duration_ms'), (ms) => `${(ms / 1000).toFixed(1)}s`)}`,
    `  Cost: ${formatNumber(numberField(message, 'total_cost_usd'), (usd) => `$${usd.toFixed(4)}`)}`,
    `  Turns: ${formatNumber(numberField(message, 'num_turns'), String)}`,
    `  Tokens: ${formatNumber(numberField(usage, 'input_tokens'), String)} in / ${formatNumber(numberField(usage, 'output_tokens'), String)} out`,
  ];
  const resultText = stringField(message, 'result');
  if (failed && resultText !== undefined && resultText.trim() !== '') {
    lines.push(`  Message: ${truncate(resultText.trim(), MAX_TEXT_CHARS).replace(/\n/g, '\n    ')}`);
  }
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

/**
 * One `name: value` line per input field; a multi-line string goes below its name, indented, cut to its
 * first lines with a `(… N more lines)` marker. Non-string values are JSON.
 */
function formatToolInput(input: unknown): string {
  if (input === undefined || input === null) return '';
  if (!isRecord(input)) return truncate(safeJson(input), MAX_INPUT_CHARS);
  return Object.entries(input)
    .map(([name, value]) => {
      const text = typeof value === 'string' ? value : safeJson(value);
      if (!text.includes('\n')) return `${name}: ${truncate(text, MAX_INPUT_CHARS)}`;
      return `${name}:\n${indent(truncateLines(text.replace(/\n$/, ''), MAX_INPUT_LINES))}`;
    })
    .join('\n');
}

function truncateLines(text: string, max: number): string {
  const lines = text.split('\n');
  if (lines.length <= max) return truncate(text, MAX_INPUT_CHARS * 4);
  const shown = truncate(lines.slice(0, max).join('\n'), MAX_INPUT_CHARS * 4);
  return `${shown}\n(… ${lines.length - max} more lines)`;
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
