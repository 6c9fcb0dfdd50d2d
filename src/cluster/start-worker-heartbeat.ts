import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { WorkerRegistry, WorkerRow } from './create-worker-registry.ts';

export interface WorkerHeartbeatOptions {
  registry: WorkerRegistry;
  row: WorkerRow;
  /** The registry's TTL: how long a row lives without a renewal, by the database's clock. */
  ttlMs: number;
  /** Well under the TTL (a third of it: two renewals may fail before the row lapses). */
  intervalMs: number;
  logger: Logger;
  /** The row lapsed or could not be renewed before it would: the executor must stop at once. */
  onLost(reason: string): void;
  /** How often the process checks that it was not paused past its TTL; default 100 ms. */
  wakeCheckMs?: number;
}

export interface WorkerHeartbeat {
  /**
   * Renews the row now (after any renewal in flight) and says whether this executor still holds it. False
   * means it lapsed (it was, or is about to be, declared dead) and `onLost` was called: nothing of the run
   * may go on.
   */
  confirm(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * An executor's heartbeat: registers its row, then renews it each interval. Fails closed: a renewal the
 * database refuses (the row lapsed: the controller may already have requeued this executor's runs) or an
 * error past the TTL is reported once through `onLost`, and the heartbeat stops. A process paused (SIGSTOP,
 * a suspended machine, a starved event loop) learns it on waking, before a round trip: when a whole TTL has
 * passed since its last renewal was sent, the row has lapsed by the database's clock too, so the wake check
 * reports it lost at its first tick.
 */
export async function startWorkerHeartbeat(options: WorkerHeartbeatOptions): Promise<WorkerHeartbeat> {
  const { registry, row, logger, ttlMs } = options;
  // When the renewal in flight was sent (null: none): until a TTL after it, its answer decides.
  let inFlightSentAt: number | null = null;
  // Registering may wait on the schema lock (another process migrating): the clock starts at a renewal.
  await registry.register(row);
  const registeredAt = Date.now();
  if (!(await registry.renew(row.executorID)))
    throw new Error('its heartbeat row lapsed as it was registered');
  // When the last successful renewal was sent: the row's expiry is at least a TTL after it.
  let renewedSentAt = registeredAt;
  let stopped = false;
  let lost = false;
  let round: Promise<void> = Promise.resolve();
  const lose = (reason: string) => {
    if (stopped) return;
    stopped = true;
    lost = true;
    clearInterval(timer);
    clearInterval(wake);
    options.onLost(reason);
  };
  const lapsedLocally = () => {
    const now = Date.now();
    if (now - renewedSentAt < ttlMs || (inFlightSentAt !== null && now - inFlightSentAt < ttlMs))
      return false;
    lose(`it went ${now - renewedSentAt} ms without a renewal (paused?): its heartbeat lapsed`);
    return true;
  };
  const beat = async () => {
    if (stopped || lapsedLocally()) return;
    const sentAt = Date.now();
    inFlightSentAt = sentAt;
    try {
      const renewed = await registry.renew(row.executorID);
      inFlightSentAt = null;
      if (stopped) return;
      if (!renewed) lose('its heartbeat lapsed: the controller may have given its runs to another worker');
      else renewedSentAt = sentAt;
    } catch (error) {
      inFlightSentAt = null;
      logger.warn('could not renew the worker heartbeat', { error: messageOf(error) });
      // Three intervals without a renewal: the row may have lapsed by the database's clock.
      if (Date.now() - renewedSentAt >= 3 * options.intervalMs)
        lose(`its heartbeat could not be renewed: ${messageOf(error)}`);
    }
  };
  const renewNow = () => {
    round = round.then(beat);
    return round;
  };
  const timer = setInterval(renewNow, options.intervalMs);
  const wake = setInterval(lapsedLocally, options.wakeCheckMs ?? 100);
  return {
    async confirm() {
      if (lost || lapsedLocally()) return false;
      await renewNow();
      return !lost;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(wake);
      await round;
      await registry.remove(row.executorID).catch(() => undefined);
    },
  };
}
