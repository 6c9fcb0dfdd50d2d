import type {
  RevisionReader,
  RevisionWriter,
  SpecReader,
  WorkItemReader,
  WorkItemWriter,
} from '../../../src/providers/types.ts';
import { messageOf } from '../../../src/shared/message-of.ts';

/** Every provider method by name (the names are unique across the five interfaces). */
export type ProviderMethodName =
  | keyof WorkItemReader
  | keyof WorkItemWriter
  | keyof RevisionReader
  | keyof RevisionWriter
  | keyof SpecReader;

export interface ProviderCall {
  method: ProviderMethodName;
  /** Deep copies of the arguments as they were at call time. */
  args: unknown[];
  /** The message the call threw (injected or real); null when it succeeded or is still running. */
  error: string | null;
}

export interface FailNextOptions {
  /** How many of the next calls fail (default 1; `Infinity` for every call until `clearFailures`). */
  times?: number;
  /** What they throw; a string becomes an Error. Default: an Error naming the method. */
  error?: Error | string;
}

interface PendingFailure {
  remaining: number;
  error: Error | string | undefined;
}

/**
 * Wraps provider methods so every call is logged in order, arguments and results are deep-copied (callers
 * can never reach internal state), and tests can make a method fail on its next calls.
 */
export function createCallRecorder() {
  const log: ProviderCall[] = [];
  const pending = new Map<ProviderMethodName, PendingFailure[]>();

  function takeFailure(method: ProviderMethodName): Error | null {
    const queue = pending.get(method);
    const head = queue?.[0];
    if (!queue || !head) return null;
    head.remaining -= 1;
    if (head.remaining <= 0) queue.shift();
    if (head.error instanceof Error) return head.error;
    return new Error(head.error ?? `in-memory provider: injected failure in ${method}`);
  }

  function wrap<A extends unknown[], R>(
    method: ProviderMethodName,
    implementation: (...args: A) => R | Promise<R>,
  ): (...args: A) => Promise<R> {
    return async (...args: A) => {
      const call: ProviderCall = { method, args: structuredClone(args), error: null };
      log.push(call);
      const injected = takeFailure(method);
      if (injected) {
        call.error = injected.message;
        throw injected;
      }
      try {
        // Copy the arguments too: an implementation that stores them must not share the caller's objects.
        return structuredClone(await implementation(...structuredClone(args)));
      } catch (error) {
        call.error = messageOf(error);
        throw error;
      }
    };
  }

  return {
    wrap,
    failNext(method: ProviderMethodName, options: FailNextOptions = {}): void {
      const times = options.times ?? 1;
      if (!(times > 0)) throw new Error(`failNext: times must be positive, got ${times}`);
      const queue = pending.get(method) ?? [];
      queue.push({ remaining: times, error: options.error });
      pending.set(method, queue);
    },
    clearFailures(): void {
      pending.clear();
    },
    calls(method?: ProviderMethodName): ProviderCall[] {
      return structuredClone(method === undefined ? log : log.filter((call) => call.method === method));
    },
    clearCalls(): void {
      log.length = 0;
    },
  };
}

export type CallRecorder = ReturnType<typeof createCallRecorder>;
