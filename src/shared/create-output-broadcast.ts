/**
 * Fans one agent output stream out to any number of readers. The engine pumps the source exactly once
 * (so stall detection works with no reader attached); each reader first gets the retained history, then
 * live chunks, and ends when the source ends.
 */
export interface OutputBroadcast {
  /** Feeds a chunk to every reader. */
  push(chunk: string): void;
  /** Ends every reader; later readers get the history and end at once. */
  end(): void;
  subscribe(): AsyncIterable<string>;
  readonly ended: boolean;
}

export function createOutputBroadcast(options: { historyLimit?: number } = {}): OutputBroadcast {
  const historyLimit = options.historyLimit ?? 2000;
  const history: string[] = [];
  const readers = new Set<(chunk: string | null) => void>();
  let ended = false;

  return {
    push(chunk) {
      if (ended) return;
      history.push(chunk);
      if (history.length > historyLimit) history.splice(0, history.length - historyLimit);
      for (const deliver of readers) deliver(chunk);
    },
    end() {
      if (ended) return;
      ended = true;
      for (const deliver of readers) deliver(null);
      readers.clear();
    },
    get ended() {
      return ended;
    },
    subscribe() {
      const pending: (string | null)[] = [...history];
      if (ended) pending.push(null);
      let wake: (() => void) | null = null;
      const deliver = (chunk: string | null) => {
        pending.push(chunk);
        wake?.();
      };
      if (!ended) readers.add(deliver);
      return {
        async *[Symbol.asyncIterator]() {
          try {
            while (true) {
              if (pending.length === 0) {
                await new Promise<void>((resolve) => {
                  wake = resolve;
                });
                wake = null;
                continue;
              }
              const chunk = pending.shift();
              if (chunk === null || chunk === undefined) return;
              yield chunk;
            }
          } finally {
            readers.delete(deliver);
          }
        },
      };
    },
  };
}
