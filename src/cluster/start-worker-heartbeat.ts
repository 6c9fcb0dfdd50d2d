import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { WorkerRegistry, WorkerRow } from './create-worker-registry.ts';

export interface WorkerHeartbeatOptions {
  registry: WorkerRegistry;
  row: WorkerRow;
  /** Well under the registry's TTL (a third of it: two renewals may fail before the row lapses). */
  intervalMs: number;
  logger: Logger;
  /** The row lapsed or could not be renewed before it would: the executor must stop at once. */
  onLost(reason: string): void;
}

/**
 * An executor's heartbeat: registers its row, then renews it each interval. Fails closed: a renewal the
 * database refuses (the row lapsed: the controller may already have requeued this executor's runs) or an
 * error past the TTL is reported once through `onLost`, and the heartbeat stops.
 */
export async function startWorkerHeartbeat(
  options: WorkerHeartbeatOptions,
): Promise<{ stop(): Promise<void> }> {
  const { registry, row, logger } = options;
  await registry.register(row);
  let lastRenewed = Date.now();
  let stopped = false;
  let round: Promise<void> = Promise.resolve();
  const lose = (reason: string) => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    options.onLost(reason);
  };
  const beat = async () => {
    if (stopped) return;
    try {
      if (await registry.renew(row.executorID)) lastRenewed = Date.now();
      else lose('its heartbeat lapsed: the controller may have given its runs to another worker');
    } catch (error) {
      logger.warn('could not renew the worker heartbeat', { error: messageOf(error) });
      // Three intervals without a renewal: the row may have lapsed by the database's clock.
      if (Date.now() - lastRenewed >= 3 * options.intervalMs)
        lose(`its heartbeat could not be renewed: ${messageOf(error)}`);
    }
  };
  const timer = setInterval(() => {
    round = round.then(beat);
  }, options.intervalMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await round;
      await registry.remove(row.executorID).catch(() => undefined);
    },
  };
}
