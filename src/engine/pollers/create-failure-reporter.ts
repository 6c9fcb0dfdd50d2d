import type { EngineEvent } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { messageOf } from '../../shared/message-of.ts';
import type { Clock } from '../engine-config.ts';

/**
 * Reports a poller failure once per streak (not on every cycle) and logs the recovery, so a provider
 * outage shows up as one error instead of flooding the error list.
 */
export function createFailureReporter(options: { source: string; logger: Logger; clock: Clock }) {
  let failing = false;
  return {
    failed(error: unknown): EngineEvent[] {
      const message = messageOf(error);
      options.logger.warn(`${options.source} poll failed; skipping this cycle`, { error: message });
      if (failing) return [];
      failing = true;
      return [{ type: 'errorRecorded', source: options.source, message, at: options.clock.now() }];
    },
    succeeded(): void {
      if (failing) options.logger.info(`${options.source} poll recovered`);
      failing = false;
    },
  };
}
