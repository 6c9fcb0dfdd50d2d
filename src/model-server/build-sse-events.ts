import type { AssistantMessage } from './build-assistant-message.ts';
import { splitInChunks } from './split-in-chunks.ts';

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/**
 * The SSE events the Messages API streams for `message`: message_start, ping, per block
 * content_block_start / content_block_delta (text_delta or input_json_delta, split in a few chunks) /
 * content_block_stop, then message_delta (stop_reason, usage) and message_stop.
 */
export function buildSseEvents(message: AssistantMessage): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (event: string, data: Record<string, unknown>): void => {
    events.push({ event, data: { type: event, ...data } });
  };
  push('message_start', {
    message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
  });
  push('ping', {});
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      push('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const text of splitInChunks(block.text)) {
        push('content_block_delta', { index, delta: { type: 'text_delta', text } });
      }
    } else {
      push('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      for (const partial of splitInChunks(JSON.stringify(block.input))) {
        push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
      }
    }
    push('content_block_stop', { index });
  });
  push('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  push('message_stop', {});
  return events;
}

/** Serialises one event in the wire format (`event: …\ndata: …\n\n`). */
export function formatSseEvent(event: SseEvent): string {
  const name = event.event === '' ? '' : `event: ${event.event}\n`;
  return `${name}data: ${JSON.stringify(event.data)}\n\n`;
}
