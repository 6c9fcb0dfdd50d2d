import type { Logger } from '../logging/logger.ts';
import { messageOf } from '../shared/message-of.ts';
import type { WorkerRegistry } from './create-worker-registry.ts';

export interface DeadWorkerSweepOptions {
  registry: WorkerRegistry;
  /** Puts a dead executor's started runs back on the queue (create-durable-run-queue.ts). */
  requeueRunsOf(executorID: string): Promise<string[]>;
  /** Puts back the runs in progress on executors that are not alive (create-durable-run-queue.ts). */
  requeueOrphanedRuns?(alive: () => Promise<ReadonlySet<string>>): Promise<string[]>;
  intervalMs: number;
  logger: Logger;
}

/**
 * The controller's half of worker death (issue #33): each interval, the executors whose heartbeat lapsed are
 * removed and the runs they had started go back on the queue, for another executor. The engine never
 * learns of it: its run is still running, so no attempt is counted. An executor that is only slow, not
 * dead, finds its row gone at its next renewal and stops (start-worker-heartbeat.ts); a run it took after it
 * was declared dead, before it stopped, is an orphan: the next round requeues it.
 */
export function startDeadWorkerSweep(options: DeadWorkerSweepOptions): { stop(): Promise<void> } {
  const { registry, logger } = options;
  let stopped = false;
  let round: Promise<void> = Promise.resolve();
  const sweep = async () => {
    try {
      for (const executorID of await registry.reapExpired()) {
        const runs = await options.requeueRunsOf(executorID);
        logger.warn('a worker stopped heartbeating: its runs go to another worker', { executorID, runs });
      }
      const orphaned = await options.requeueOrphanedRuns?.(
        async () => new Set((await registry.listAlive()).map((row) => row.executorID)),
      );
      if (orphaned !== undefined && orphaned.length > 0)
        logger.warn('runs in progress on executors declared dead go to another worker', { runs: orphaned });
    } catch (error) {
      logger.warn('could not sweep dead workers; trying again', { error: messageOf(error) });
    }
  };
  const timer = setInterval(() => {
    if (stopped) return;
    round = round.then(sweep);
  }, options.intervalMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await round;
    },
  };
}
