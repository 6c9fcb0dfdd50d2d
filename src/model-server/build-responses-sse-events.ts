import type { ResponseObject } from './build-response-object.ts';
import type { SseEvent } from './build-sse-events.ts';
import { splitInChunks } from './split-in-chunks.ts';

/**
 * The SSE events the Responses API streams for `response`: `response.created`, `response.in_progress`, per
 * output item `response.output_item.added`, then for a message `response.content_part.added`,
 * `response.output_text.delta` (a few chunks), `response.output_text.done`, `response.content_part.done`,
 * for a function call `response.function_call_arguments.delta` / `.done`, then `response.output_item.done`
 * with the complete item; finally `response.completed` with the whole response and its usage. Every event
 * has a `sequence_number`.
 */
export function buildResponsesSseEvents(response: ResponseObject): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (type: string, data: Record<string, unknown>): void => {
    events.push({ event: type, data: { type, sequence_number: events.length, ...data } });
  };
  const inProgress = { ...response, status: 'in_progress', output: [], usage: null };
  push('response.created', { response: inProgress });
  push('response.in_progress', { response: inProgress });
  response.output.forEach((item, outputIndex) => {
    const at = { item_id: item.id, output_index: outputIndex };
    if (item.type === 'message') {
      push('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', content: [] },
      });
      item.content.forEach((part, contentIndex) => {
        push('response.content_part.added', {
          ...at,
          content_index: contentIndex,
          part: { ...part, text: '' },
        });
        for (const delta of splitInChunks(part.text)) {
          push('response.output_text.delta', { ...at, content_index: contentIndex, delta, logprobs: [] });
        }
        push('response.output_text.done', {
          ...at,
          content_index: contentIndex,
          text: part.text,
          logprobs: [],
        });
        push('response.content_part.done', { ...at, content_index: contentIndex, part });
      });
    } else {
      push('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      for (const delta of splitInChunks(item.arguments)) {
        push('response.function_call_arguments.delta', { ...at, delta });
      }
      push('response.function_call_arguments.done', { ...at, arguments: item.arguments });
    }
    push('response.output_item.done', { output_index: outputIndex, item });
  });
  push('response.completed', { response });
  return events;
}
