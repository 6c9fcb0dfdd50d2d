/** One Server-Sent Event as received. */
export interface ReceivedSseEvent {
  id: string;
  event: string;
  data: unknown;
}

/** An open SSE connection: the events so far (parsed as they arrive) and `close()`. */
export interface SseReader {
  events: ReceivedSseEvent[];
  close(): void;
}

/**
 * Opens `url` as an SSE stream (a plain fetch, as a script would) and collects its events; `headers` for a
 * bearer token or `Last-Event-ID`. Resolves once the response headers arrived (rejects on a non-200).
 */
export async function readSseEvents(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  if (response.status !== 200 || response.body === null) {
    throw new Error(`SSE ${url}: ${response.status} ${await response.text()}`);
  }
  const events: ReceivedSseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name: string) =>
            block
              .split('\n')
              .filter((line) => line.startsWith(`${name}:`))
              .map((line) => line.slice(name.length + 1).replace(/^ /, ''))
              .join('\n');
          if (block.trim() !== '') {
            events.push({
              id: field('id'),
              event: field('event'),
              data: JSON.parse(field('data') || 'null'),
            });
          }
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Closed by close() or by the server.
    }
  })();
  return { events, close: () => controller.abort() };
}
