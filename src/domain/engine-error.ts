import type { EngineEvent } from './events.ts';

/**
 * An error the engine recorded: a command rejected or failed, a handler or state update that threw. The
 * engine's state keeps the latest; storage keeps them all.
 */
export interface ErrorEntry {
  /** Epoch milliseconds. */
  at: number;
  source: string;
  message: string;
  event: EngineEvent | null;
}
