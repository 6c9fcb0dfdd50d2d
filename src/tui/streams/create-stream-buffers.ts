import { isAgentRunActive } from '../../domain/index.ts';
import type { Engine } from '../../engine/create-engine.ts';

export interface StreamBuffer {
  sessionID: string;
  lines: readonly string[];
  /** Lines dropped from the front since the session began (the ring holds the newest `maxLines`). */
  dropped: number;
  ended: boolean;
}

export interface StreamBuffers {
  get(sessionID: string): StreamBuffer | null;
  /** Called (at most once per `notifyIntervalMs`) after any buffer changed. */
  subscribe(listener: () => void): () => void;
  /** Bumped on every change, for useSyncExternalStore. */
  version(): number;
  close(): void;
}

export interface StreamBufferOptions {
  /** Lines kept per session. */
  maxLines?: number;
  /** Finished sessions whose output is kept for viewing after they end. */
  keepFinished?: number;
  notifyIntervalMs?: number;
}

type StreamSource = Pick<Engine, 'getAgentStream' | 'getState' | 'subscribe'>;

/**
 * Follows the live output of every active agent run into a ring buffer of lines per session, so the detail
 * pane can scroll back without keeping the renderer on the hot path: chunks only append to arrays, and
 * listeners are told of changes at most once per interval.
 */
export function createStreamBuffers(source: StreamSource, options: StreamBufferOptions = {}): StreamBuffers {
  const maxLines = options.maxLines ?? 10_000;
  const keepFinished = options.keepFinished ?? 50;
  const notifyIntervalMs = options.notifyIntervalMs ?? 50;
  const buffers = new Map<string, { lines: string[]; dropped: number; ended: boolean }>();
  const finishedOrder: string[] = [];
  const listeners = new Set<() => void>();
  let version = 0;
  let notifyTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const changed = () => {
    version += 1;
    if (notifyTimer !== null || closed) return;
    notifyTimer = setTimeout(() => {
      notifyTimer = null;
      for (const listener of listeners) listener();
    }, notifyIntervalMs);
  };

  const follow = (sessionID: string) => {
    const stream = source.getAgentStream(sessionID);
    if (stream === null) return;
    const buffer = { lines: [] as string[], dropped: 0, ended: false };
    buffers.set(sessionID, buffer);
    void (async () => {
      try {
        for await (const chunk of stream) {
          if (closed) return;
          appendChunk(buffer, chunk, maxLines);
          changed();
        }
      } catch {
        // A stream that breaks ends like one that finished; the transcript file has the full record.
      }
      buffer.ended = true;
      finishedOrder.push(sessionID);
      while (finishedOrder.length > keepFinished) {
        const oldest = finishedOrder.shift();
        if (oldest !== undefined) buffers.delete(oldest);
      }
      changed();
    })();
  };

  const scan = () => {
    for (const run of Object.values(source.getState().agentRuns)) {
      if (isAgentRunActive(run) && !buffers.has(run.sessionID)) follow(run.sessionID);
    }
  };
  const unsubscribe = source.subscribe(scan);
  scan();

  return {
    get(sessionID) {
      const buffer = buffers.get(sessionID);
      if (buffer === undefined) return null;
      return { sessionID, lines: buffer.lines, dropped: buffer.dropped, ended: buffer.ended };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
    close() {
      closed = true;
      unsubscribe();
      if (notifyTimer !== null) clearTimeout(notifyTimer);
      listeners.clear();
    },
  };
}

/** Each chunk is one agent message (a text block); its lines are appended as they are. */
function appendChunk(buffer: { lines: string[]; dropped: number }, chunk: string, maxLines: number): void {
  const text = chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk;
  for (const line of text.split('\n')) buffer.lines.push(line);
  // Trimmed in batches: one splice per ~10% overflow instead of shifting 10,000 entries for every line.
  if (buffer.lines.length > maxLines + Math.ceil(maxLines / 10)) {
    const excess = buffer.lines.length - maxLines;
    buffer.lines.splice(0, excess);
    buffer.dropped += excess;
  }
}
