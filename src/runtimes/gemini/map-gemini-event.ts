import { isRecord } from '../../shared/is-record.ts';

/** What one stream-json line of gemini-cli (0.61) means for the run. */
export type GeminiEvent =
  | { kind: 'init'; sessionId: string; model: string }
  | { kind: 'text'; text: string }
  | { kind: 'tool-call'; id: string; name: string; input: Record<string, unknown> }
  | { kind: 'tool-result'; id: string; ok: boolean; output: string }
  | { kind: 'result'; ok: boolean; usage: GeminiUsage; error?: string }
  | { kind: 'other' };

export interface GeminiUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  toolCalls: number;
}

/**
 * Maps one line of `--output-format stream-json` output: `init` (session id, model), assistant `message`
 * deltas, `tool_use` / `tool_result`, and the final `result` with its `stats`. A line that is not JSON, or an
 * event of another type (the user's own `message`, `error` notices), is `other`: untrusted output never throws.
 */
export function mapGeminiEvent(line: string): GeminiEvent {
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return { kind: 'other' };
  }
  if (!isRecord(event)) return { kind: 'other' };
  switch (event.type) {
    case 'init':
      return { kind: 'init', sessionId: text(event.session_id), model: text(event.model) };
    case 'message':
      return event.role === 'assistant' ? { kind: 'text', text: text(event.content) } : { kind: 'other' };
    case 'tool_use':
      return {
        kind: 'tool-call',
        id: text(event.tool_id),
        name: text(event.tool_name),
        input: isRecord(event.parameters) ? event.parameters : {},
      };
    case 'tool_result':
      return {
        kind: 'tool-result',
        id: text(event.tool_id),
        ok: event.status === 'success',
        output: isRecord(event.error) ? text(event.error.message) : text(event.output),
      };
    case 'result': {
      const stats = isRecord(event.stats) ? event.stats : {};
      const error = isRecord(event.error) ? text(event.error.message) : undefined;
      return {
        kind: 'result',
        ok: event.status === 'success',
        usage: {
          inputTokens: count(stats.input_tokens),
          outputTokens: count(stats.output_tokens),
          cachedTokens: count(stats.cached),
          toolCalls: count(stats.tool_calls),
        },
        ...(error === undefined ? {} : { error }),
      };
    }
    default:
      return { kind: 'other' };
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}
