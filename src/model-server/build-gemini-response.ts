import { buildUsage } from './build-assistant-message.ts';
import type { SseEvent } from './build-sse-events.ts';
import type { StepReply } from './scenario-types.ts';
import { splitInChunks } from './split-in-chunks.ts';

type GeminiPart =
  | { text: string }
  | { functionCall: { id: string; name: string; args: Record<string, unknown> }; thoughtSignature: string };

/** A Gemini API `GenerateContentResponse` (the non-streaming answer; the SSE stream is derived from it). */
export interface GeminiResponse {
  candidates: { content: { role: 'model'; parts: GeminiPart[] }; finishReason: 'STOP'; index: 0 }[];
  usageMetadata: {
    promptTokenCount: number;
    candidatesTokenCount: number;
    cachedContentTokenCount: number;
    totalTokenCount: number;
  };
  modelVersion: string;
  responseId: string;
}

/**
 * The Gemini API form of a step's reply: text blocks become text parts, `tool_use` blocks `functionCall`
 * parts (`args` = the block's input, `id` = its `id` or a generated one; the thought signature is the value
 * Gemini documents for calls it did not produce itself), `structuredOutput` a last text part with the JSON.
 * Usage: `input_tokens` → `promptTokenCount`, `output_tokens` → `candidatesTokenCount`,
 * `cache_read_input_tokens` → `cachedContentTokenCount`.
 */
export function buildGeminiResponse(reply: StepReply, model: string, seq: number): GeminiResponse {
  const parts: GeminiPart[] = [];
  if (reply.text !== undefined) parts.push({ text: reply.text });
  for (const block of reply.content ?? []) {
    if (block.type === 'text') parts.push({ text: block.text });
    else
      parts.push({
        functionCall: {
          id: block.id ?? `call_scripted_${seq}_${parts.length}`,
          name: block.name,
          args: block.input,
        },
        thoughtSignature: 'skip_thought_signature_validator',
      });
  }
  if (reply.structuredOutput !== undefined) parts.push({ text: JSON.stringify(reply.structuredOutput) });
  const usage = buildUsage(reply.usage);
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: usage.input_tokens,
      candidatesTokenCount: usage.output_tokens,
      cachedContentTokenCount: usage.cache_read_input_tokens,
      totalTokenCount: usage.input_tokens + usage.output_tokens,
    },
    modelVersion: model,
    responseId: `resp_scripted_${seq}`,
  };
}

/**
 * The SSE chunks `streamGenerateContent?alt=sse` sends for `response`: each text part in a few chunks, each
 * function call whole, every chunk a `GenerateContentResponse` with one part; the last one carries
 * `finishReason` and `usageMetadata`. Gemini's stream has no event names (`event` is empty).
 */
export function buildGeminiSseEvents(response: GeminiResponse): SseEvent[] {
  const candidate = response.candidates[0];
  const pieces: GeminiPart[] = (candidate?.content.parts ?? []).flatMap((part): GeminiPart[] =>
    'text' in part ? splitInChunks(part.text).map((text) => ({ text })) : [part],
  );
  if (pieces.length === 0) pieces.push({ text: '' });
  return pieces.map((part, index) => {
    const last = index === pieces.length - 1;
    return {
      event: '',
      data: {
        candidates: [
          { content: { role: 'model', parts: [part] }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) },
        ],
        ...(last ? { usageMetadata: response.usageMetadata } : {}),
        modelVersion: response.modelVersion,
        responseId: response.responseId,
      },
    };
  });
}

/** A Google API error body (`{ error: { code, message, status } }`), as gemini-cli reads it. */
export function buildGeminiErrorBody(
  status: number,
  message: string,
): { error: { code: number; message: string; status: string } } {
  const names: Record<number, string> = {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    429: 'RESOURCE_EXHAUSTED',
    503: 'UNAVAILABLE',
  };
  return {
    error: { code: status, message, status: names[status] ?? (status >= 500 ? 'INTERNAL' : 'UNKNOWN') },
  };
}
