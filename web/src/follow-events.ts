export interface EventFollower {
  close(): void;
}

export interface FollowEventsHandlers {
  /** Any event, whatever its type (the engine's own names under `flotilla run --serve`, the watcher's). */
  onEvent(type: string, data: string): void;
  /** Connected (again): what was missed since `Last-Event-ID` follows. */
  onOpen(): void;
  onDrop(): void;
}

const RETRY_MS = 1000;

/**
 * Follows an SSE stream with fetch rather than EventSource, which delivers named events only to listeners
 * of that name: the dashboard wants every event. Reconnects after a drop with `Last-Event-ID`, so the hub
 * replays what was missed (src/api/create-event-hub.ts).
 */
export function followEvents(url: string, handlers: FollowEventsHandlers): EventFollower {
  let lastID = '';
  let closed = false;
  let controller: AbortController | null = null;

  const connect = async () => {
    controller = new AbortController();
    const response = await fetch(url, {
      headers: lastID === '' ? {} : { 'last-event-id': lastID },
      signal: controller.signal,
    });
    if (!response.ok || response.body === null) throw new Error(`${response.status}`);
    handlers.onOpen();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, '\n');
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
      }
    }
  };

  const dispatch = (block: string) => {
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      const colon = line.indexOf(':');
      if (colon === 0) continue;
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') lastID = value;
    }
    if (data.length > 0) handlers.onEvent(type, data.join('\n'));
  };

  const loop = async () => {
    while (!closed) {
      try {
        await connect();
      } catch {
        // Dropped or refused: said below, then tried again.
      }
      if (closed) return;
      handlers.onDrop();
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  void loop();
  return {
    close() {
      closed = true;
      controller?.abort();
    },
  };
}
