import type { SseEvent } from './build-sse-events.ts';

/** Parses an SSE body (`event:`/`data:` lines, blank-line separated) into events with JSON data. */
export function parseSse(text: string): SseEvent[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk !== '')
    .map((chunk) => {
      let event = 'message';
      const data: string[] = [];
      for (const line of chunk.split(/\r?\n/)) {
        if (line.startsWith('event:')) event = line.slice('event:'.length).trim();
        else if (line.startsWith('data:')) data.push(line.slice('data:'.length).trimStart());
      }
      return { event, data: JSON.parse(data.join('\n')) as Record<string, unknown> };
    });
}
