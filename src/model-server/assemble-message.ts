import { isRecord } from '../shared/is-record.ts';
import type { AssistantBlock, AssistantMessage } from './build-assistant-message.ts';
import type { SseEvent } from './build-sse-events.ts';

/**
 * Rebuilds the message a Messages API SSE stream describes, the way a client does: blocks from
 * content_block_start, text and tool input concatenated from the deltas, stop reason and output tokens from
 * message_delta. Throws on a malformed stream (deltas for unknown blocks, missing message_start/stop).
 */
export function assembleMessage(events: SseEvent[]): AssistantMessage {
  const start = events.find((event) => event.event === 'message_start')?.data.message;
  if (!isRecord(start)) throw new Error('SSE stream has no message_start');
  if (events.at(-1)?.event !== 'message_stop') throw new Error('SSE stream does not end with message_stop');
  const message = { ...start, content: [] as AssistantBlock[] } as unknown as AssistantMessage;
  const partialJson = new Map<number, string>();
  for (const { event, data } of events) {
    const index = typeof data.index === 'number' ? data.index : -1;
    if (event === 'content_block_start' && isRecord(data.content_block)) {
      message.content[index] = { ...data.content_block } as AssistantBlock;
      partialJson.set(index, '');
    } else if (event === 'content_block_delta' && isRecord(data.delta)) {
      const block = message.content[index];
      if (block === undefined) throw new Error(`delta for unknown block ${index}`);
      if (data.delta.type === 'text_delta' && block.type === 'text') block.text += String(data.delta.text);
      if (data.delta.type === 'input_json_delta') {
        partialJson.set(index, (partialJson.get(index) ?? '') + String(data.delta.partial_json));
      }
    } else if (event === 'content_block_stop') {
      const block = message.content[index];
      if (block?.type === 'tool_use') block.input = JSON.parse(partialJson.get(index) || '{}');
    } else if (event === 'message_delta' && isRecord(data.delta)) {
      message.stop_reason = data.delta.stop_reason as AssistantMessage['stop_reason'];
      if (isRecord(data.usage) && typeof data.usage.output_tokens === 'number') {
        message.usage = { ...message.usage, output_tokens: data.usage.output_tokens };
      }
    }
  }
  return message;
}
