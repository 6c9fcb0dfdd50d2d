/** One event as SSE sends it: `id` increases by one per event, from 1. */
export interface HubEvent {
  id: number;
  type: string;
  data: unknown;
}

export interface EventHub {
  publish(type: string, data: unknown): HubEvent;
  /** Events after `lastID` still in the buffer, oldest first. */
  since(lastID: number): HubEvent[];
  subscribe(listener: (event: HubEvent) => void): () => void;
}

/**
 * Engine events for `/api/events`, kept in a ring of the last `capacity` so a client that reconnects with
 * `Last-Event-ID` gets what it missed (older ones are gone: it reloads the lists instead).
 */
export function createEventHub(capacity = 1000): EventHub {
  const buffer: HubEvent[] = [];
  const listeners = new Set<(event: HubEvent) => void>();
  let nextID = 1;
  return {
    publish(type, data) {
      const event = { id: nextID++, type, data };
      buffer.push(event);
      if (buffer.length > capacity) buffer.shift();
      for (const listener of listeners) listener(event);
      return event;
    },
    since: (lastID) => buffer.filter((event) => event.id > lastID),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
