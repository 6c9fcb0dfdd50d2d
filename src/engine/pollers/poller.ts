import type { EngineEvent } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Clock } from '../engine-config.ts';
import type { EngineState } from '../state-store/engine-state.ts';

/**
 * Reads one provider and returns what changed against the store. The loop runs polls only while nothing
 * else is processed, so the store cannot move during the read. Never rejects: failures come back as an
 * `errorRecorded` event (once per streak).
 */
export interface Poller {
  readonly name: string;
  poll(getState: () => EngineState): Promise<EngineEvent[]>;
}

export interface PollerDeps<Reader> {
  reader: Reader;
  logger: Logger;
  clock: Clock;
}
