import type { EngineEvent } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';

export interface EventLoop {
  /** Appends an event; wakes the loop. Ignored (and logged) once the loop has stopped. */
  push(event: EngineEvent): void;
  start(): void;
  /** Processes everything already queued (and whatever that produces), then stops. */
  drainAndStop(): Promise<void>;
  /** Resolves the next time the queue is empty and no event is being processed. */
  whenIdle(): Promise<void>;
  isIdle(): boolean;
  size(): number;
}

/**
 * FIFO queue with a single consumer: exactly one event is processed at a time, in arrival order. The
 * processor is expected to contain its own errors; anything that still escapes is logged and the loop
 * goes on.
 */
export function createEventLoop(options: {
  process: (event: EngineEvent) => Promise<void>;
  logger: Logger;
}): EventLoop {
  const queue: EngineEvent[] = [];
  let running = false;
  let stopped = false;
  let processing = false;
  let wake: (() => void) | null = null;
  let loopDone: Promise<void> = Promise.resolve();
  let idleWaiters: (() => void)[] = [];

  const notifyIdle = () => {
    if (queue.length > 0 || processing) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  async function run(): Promise<void> {
    while (true) {
      const event = queue.shift();
      if (event === undefined) {
        notifyIdle();
        if (!running) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      processing = true;
      try {
        await options.process(event);
      } catch (error) {
        options.logger.error('event processing threw; continuing', {
          event: event.type,
          error: error instanceof Error ? error.message : String(error),
        });
      } finally {
        processing = false;
      }
    }
  }

  return {
    push(event) {
      if (stopped) {
        options.logger.debug('event after stop ignored', { event: event.type });
        return;
      }
      queue.push(event);
      wake?.();
    },
    start() {
      if (running || stopped) return;
      running = true;
      loopDone = run();
    },
    async drainAndStop() {
      if (!running) {
        stopped = true;
        return;
      }
      running = false;
      wake?.();
      await loopDone;
      stopped = true;
    },
    whenIdle() {
      if (queue.length === 0 && !processing) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    isIdle: () => queue.length === 0 && !processing,
    size: () => queue.length,
  };
}
