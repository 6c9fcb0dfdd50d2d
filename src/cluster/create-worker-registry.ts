import type { Pool } from 'pg';
import { withSchemaLock } from './with-schema-lock.ts';

/** One row per executor (a worker's slot) that heartbeats: who it is and when it is presumed dead. */
export const WORKERS_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS flotilla_workers (
    executor_id TEXT PRIMARY KEY,
    worker TEXT NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at TIMESTAMPTZ NOT NULL
  );
  ALTER TABLE flotilla_workers ADD COLUMN IF NOT EXISTS heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now();
  ALTER TABLE flotilla_workers ADD COLUMN IF NOT EXISTS dead_at TIMESTAMPTZ`;

/** How long the row of an executor declared dead is kept for `flotilla workers` to show. */
const DEAD_ROWS_KEPT = '1 hour';

export interface WorkerRow {
  executorID: string;
  worker: string;
  host: string;
  pid: number;
}

/** An executor's row as `flotilla workers` shows it: alive by the database's clock, or lapsed. */
export interface WorkerStatusRow extends WorkerRow {
  startedAt: Date;
  lastHeartbeat: Date;
  alive: boolean;
}

export interface WorkerRegistry {
  /** Adds (or refreshes) the executor's row, alive for the TTL from the database's now. */
  register(row: WorkerRow): Promise<void>;
  /** Extends the executor's row; false when it had lapsed (it was, or is about to be, declared dead). */
  renew(executorID: string): Promise<boolean>;
  /** Removes the row of an executor that stops on its own. */
  remove(executorID: string): Promise<void>;
  /**
   * Marks the rows that lapsed as dead (kept an hour for `flotilla workers`, then removed) and returns their
   * executors: their runs are to be requeued. An executor is returned once.
   */
  reapExpired(): Promise<string[]>;
  /** The executors alive now. */
  listAlive(): Promise<WorkerRow[]>;
  /** Every executor's row, alive or lapsed (not yet removed), by worker. */
  listAll(): Promise<WorkerStatusRow[]>;
}

/**
 * Workers' heartbeats in PostgreSQL (issue #33): like the controller's lease, expiry is judged by the
 * database's clock, never a machine's. A row that lapsed stays lapsed: `renew` refuses it, so an executor
 * paused past its TTL learns it was declared dead and stops rather than racing the run's second execution.
 */
export function createWorkerRegistry(options: { pool: Pool; ttlMs: number }): WorkerRegistry {
  const { pool } = options;
  const ttlSeconds = options.ttlMs / 1000;
  let tableReady: Promise<unknown> | null = null;
  const ready = () => {
    tableReady ??= withSchemaLock({ pool }, () => pool.query(WORKERS_TABLE_SQL)).catch((error: unknown) => {
      tableReady = null;
      throw error;
    });
    return tableReady;
  };
  return {
    async register(row) {
      await ready();
      await pool.query(
        `INSERT INTO flotilla_workers (executor_id, worker, host, pid, expires_at, heartbeat_at)
           VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), now())
         ON CONFLICT (executor_id) DO UPDATE
           SET expires_at = EXCLUDED.expires_at, heartbeat_at = now(), dead_at = NULL`,
        [row.executorID, row.worker, row.host, row.pid, ttlSeconds],
      );
    },
    async renew(executorID) {
      await ready();
      const result = await pool.query(
        `UPDATE flotilla_workers SET expires_at = now() + make_interval(secs => $2), heartbeat_at = now()
          WHERE executor_id = $1 AND expires_at > now()`,
        [executorID, ttlSeconds],
      );
      return result.rowCount === 1;
    },
    async remove(executorID) {
      await ready();
      await pool.query('DELETE FROM flotilla_workers WHERE executor_id = $1', [executorID]);
    },
    async reapExpired() {
      await ready();
      await pool.query(`DELETE FROM flotilla_workers WHERE dead_at < now() - interval '${DEAD_ROWS_KEPT}'`);
      const result = await pool.query<{ executor_id: string }>(
        `UPDATE flotilla_workers SET dead_at = now()
          WHERE expires_at <= now() AND dead_at IS NULL RETURNING executor_id`,
      );
      return result.rows.map((row) => row.executor_id);
    },
    async listAlive() {
      await ready();
      const result = await pool.query<{ executor_id: string; worker: string; host: string; pid: number }>(
        `SELECT executor_id, worker, host, pid FROM flotilla_workers
          WHERE expires_at > now() ORDER BY worker, executor_id`,
      );
      return result.rows.map((row) => ({
        executorID: row.executor_id,
        worker: row.worker,
        host: row.host,
        pid: row.pid,
      }));
    },
    async listAll() {
      await ready();
      const result = await pool.query<{
        executor_id: string;
        worker: string;
        host: string;
        pid: number;
        started_at: Date;
        heartbeat_at: Date;
        alive: boolean;
      }>(
        `SELECT executor_id, worker, host, pid, started_at, heartbeat_at, expires_at > now() AS alive
           FROM flotilla_workers ORDER BY worker, executor_id`,
      );
      return result.rows.map((row) => ({
        executorID: row.executor_id,
        worker: row.worker,
        host: row.host,
        pid: row.pid,
        startedAt: row.started_at,
        lastHeartbeat: row.heartbeat_at,
        alive: row.alive,
      }));
    },
  };
}
