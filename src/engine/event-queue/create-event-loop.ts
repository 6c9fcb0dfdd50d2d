import type { EngineEvent } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { messageOf } from '../../shared/message-of.ts';

export interface EventLoop {
  /** Appends an event; wakes the loop. Ignored (and logged) once the loop has stopped. */
  push(event: EngineEvent): void;
  /** Puts events, in their order, ahead of everything queued: the results of what was just processed. */
  pushFront(events: EngineEvent[]): void;
  /**
   * Asks for the poll task to run once the queue is empty. Requests made before it starts are merged.
   * Resolves after that poll has run.
   */
  requestPoll(): Promise<void>;
  start(): void;
  /** Processes everything already queued (and whatever that produces), then stops. No more polls. */
  drainAndStop(): Promise<void>;
  /** Resolves the next time the queue is empty, no poll is pending and nothing is being processed. */
  whenIdle(): Promise<void>;
  isIdle(): boolean;
  size(): number;
}

/**
 * FIFO queue with a single consumer: exactly one event (or one poll) is processed at a time, in order.
 *
 * Polls run only when the queue is empty: then every write the executor made has been applied to the
 * store, nothing can write while the poll reads the providers, and what the poll finds is never older than
 * the store it is compared with. (Reading providers concurrently with the loop lets a stale snapshot
 * overwrite newer state.)
 */
export function createEventLoop(options: {
  process: (event: EngineEvent) => Promise<void>;
  poll: () => Promise<void>;
  logger: Logger;
}): EventLoop {
  const queue: EngineEvent[] = [];
  let running = false;
  let stopped = false;
  let draining = false;
  let busy = false;
  let wake: (() => void) | null = null;
  let loopDone: Promise<void> = Promise.resolve();
  let idleWaiters: (() => void)[] = [];
  let pollRequest: { promise: Promise<void>; resolve: () => void } | null = null;

  const isIdle = () => queue.length === 0 && !busy && pollRequest === null;

  const notifyIdle = () => {
    if (!isIdle()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  async function guarded(what: string, work: () => Promise<void>): Promise<void> {
    busy = true;
    try {
      await work();
    } catch (error) {
      options.logger.error(`${what} threw; continuing`, {
        error: messageOf(error),
      });
    } finally {
      busy = false;
    }
  }

  async function run(): Promise<void> {
    while (true) {
      const event = queue.shift();
      if (event !== undefined) {
        await guarded(`processing ${event.type}`, () => options.process(event));
        continue;
      }
      if (pollRequest && running) {
        const request = pollRequest;
        pollRequest = null;
        busy = true;
        await guarded('poll', options.poll);
        request.resolve();
        continue;
      }
      notifyIdle();
      if (!running) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
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
    pushFront(events) {
      if (events.length === 0) return;
      if (stopped) {
        options.logger.debug('events after stop ignored', { count: events.length });
        return;
      }
      queue.unshift(...events);
      wake?.();
    },
    requestPoll() {
      if (stopped || draining) return Promise.resolve();
      if (!pollRequest) {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => {
          resolve = r;
        });
        pollRequest = { promise, resolve };
      }
      wake?.();
      return pollRequest.promise;
    },
    start() {
      if (running || stopped) return;
      running = true;
      loopDone = run();
    },
    async drainAndStop() {
      draining = true;
      running = false;
      wake?.();
      await loopDone;
      stopped = true;
      const request = pollRequest;
      pollRequest = null;
      request?.resolve();
      notifyIdle();
    },
    whenIdle() {
      if (isIdle()) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    isIdle,
    size: () => queue.length,
  };
}
