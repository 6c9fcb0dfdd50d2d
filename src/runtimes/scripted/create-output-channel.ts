/**
 * An unbounded, replayable text stream: the producer never waits for a consumer (unconsumed output blocks
 * nothing), each iterator reads every chunk from the start, and every iterator finishes once `end()` is
 * called and it has drained the buffer.
 */
export function createOutputChannel() {
  const chunks: string[] = [];
  const waiters = new Set<() => void>();
  let ended = false;

  function wake(): void {
    for (const waiter of waiters) waiter();
    waiters.clear();
  }

  const iterable: AsyncIterable<string> = {
    [Symbol.asyncIterator](): AsyncIterator<string> {
      let cursor = 0;
      let closed = false;
      return {
        async next(): Promise<IteratorResult<string>> {
          while (!closed) {
            const chunk = chunks[cursor];
            if (chunk !== undefined) {
              cursor += 1;
              return { value: chunk, done: false };
            }
            if (ended) break;
            await new Promise<void>((resolve) => waiters.add(resolve));
          }
          closed = true;
          return { value: undefined, done: true };
        },
        async return(): Promise<IteratorResult<string>> {
          closed = true;
          return { value: undefined, done: true };
        },
      };
    },
  };

  return {
    iterable,
    push(chunk: string): void {
      if (ended) return;
      chunks.push(chunk);
      wake();
    },
    end(): void {
      ended = true;
      wake();
    },
    get ended(): boolean {
      return ended;
    },
    get chunks(): readonly string[] {
      return chunks;
    },
  };
}

export type OutputChannel = ReturnType<typeof createOutputChannel>;
