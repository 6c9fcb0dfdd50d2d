import pg from 'pg';
import { silentLogger } from '../logging/logger.ts';
import { createDurableRunQueue } from './create-durable-run-queue.ts';
import { createLeaderLease } from './create-leader-lease.ts';
import { createWorkerRegistry } from './create-worker-registry.ts';
import { CONTROLLER_LEASE } from './start-controller-leadership.ts';

/** One `flotilla worker` as `flotilla workers` shows it: its slots are its executors. */
export interface ClusterWorkerStatus {
  id: string;
  host: string;
  /** Slots alive now (a dead worker: the slots it had). */
  slots: number;
  /** Runs its executors are running now. */
  runsInProgress: number;
  /** The latest heartbeat of any of its slots (ISO time). */
  lastHeartbeat: string;
  /** Whether any of its slots' heartbeats is current (the database's clock). */
  alive: boolean;
}

export interface ClusterStatus {
  /** The controller that leads (its lease is current), or null when none does. */
  controller: { holder: string; token: number } | null;
  /** Runs waiting on the queue for a slot. */
  queued: number;
  /** Runs in progress whose executor has no row (not yet swept, or already removed). */
  runsWithoutWorker: number;
  workers: ClusterWorkerStatus[];
}

/**
 * What `flotilla workers` prints (issue #33): the cluster's workers from their heartbeat rows, the runs in
 * progress and waiting from the durable queue, and the leading controller from its lease. Reads only (the
 * tables are created if missing, as any Flotilla process of the cluster would).
 */
export async function readClusterStatus(databaseUrl: string): Promise<ClusterStatus> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const queue = createDurableRunQueue({ databaseUrl, logger: silentLogger });
  try {
    const registry = createWorkerRegistry({ pool, ttlMs: 1000 });
    const lease = createLeaderLease({ pool, name: CONTROLLER_LEASE, holder: '', ttlMs: 1000 });
    // One after the other: each creates its table under the schema lock, which holds a connection of its own.
    const rows = await registry.listAll();
    const controller = await lease.current();
    const queueStatus = await queue.status();
    const running = { ...queueStatus.runningByExecutor };
    const byWorker = new Map<string, ClusterWorkerStatus>();
    for (const row of rows) {
      const runs = running[row.executorID] ?? 0;
      delete running[row.executorID];
      const seen = byWorker.get(row.worker);
      const heartbeat = row.lastHeartbeat.toISOString();
      if (seen === undefined) {
        byWorker.set(row.worker, {
          id: row.worker,
          host: row.host,
          slots: row.alive ? 1 : 0,
          runsInProgress: runs,
          lastHeartbeat: heartbeat,
          alive: row.alive,
        });
        continue;
      }
      seen.slots += row.alive ? 1 : 0;
      seen.runsInProgress += runs;
      if (heartbeat > seen.lastHeartbeat) seen.lastHeartbeat = heartbeat;
      seen.alive ||= row.alive;
    }
    const workers = [...byWorker.values()].map((worker) =>
      // A dead worker shows the slots it had.
      worker.alive ? worker : { ...worker, slots: rows.filter((row) => row.worker === worker.id).length },
    );
    return {
      controller,
      queued: queueStatus.queued,
      runsWithoutWorker: Object.values(running).reduce((sum, count) => sum + count, 0),
      workers,
    };
  } finally {
    await queue.close();
    await pool.end();
  }
}
