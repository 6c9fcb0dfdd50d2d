import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { EventHub, HubEvent } from './create-event-hub.ts';

/** SSE of the hub: what was missed since `Last-Event-ID` first, then live, until the client leaves. */
export function streamHubEvents(c: Context, events: EventHub): Response {
  const lastID = Number(c.req.header('last-event-id') ?? '0');
  return streamSSE(c, async (stream) => {
    let wake: (() => void) | null = null;
    const pending: HubEvent[] = [];
    const unsubscribe = events.subscribe((event) => {
      pending.push(event);
      wake?.();
    });
    pending.unshift(...events.since(Number.isInteger(lastID) && lastID > 0 ? lastID : 0));
    let closed = false;
    stream.onAbort(() => {
      closed = true;
      unsubscribe();
      wake?.();
    });
    let sent = 0;
    while (!closed) {
      const event = pending.shift();
      if (event === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      if (event.id <= sent) continue;
      sent = event.id;
      await stream.writeSSE({ id: String(event.id), event: event.type, data: JSON.stringify(event.data) });
    }
  });
}

/**
 * `GET /api/events` on `app`: the SSE stream (a plain route, since its body is a stream, not JSON), with
 * its entry in the OpenAPI document registered by hand.
 */
export function registerEventsRoute(app: OpenAPIHono, events: EventHub): void {
  app.get('/api/events', (c) => streamHubEvents(c, events));
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/api/events',
    description:
      'Server-sent events: `id` increasing, `event` the type, `data` JSON. Send `Last-Event-ID` to get what was missed (the last 1000 kept) before the live ones.',
    request: {
      headers: z.object({
        'last-event-id': z.string().optional().openapi({ description: 'the last id received' }),
      }),
    },
    responses: {
      200: { description: 'the event stream', content: { 'text/event-stream': { schema: z.string() } } },
      401: { description: 'missing or wrong bearer token' },
    },
  });
}
