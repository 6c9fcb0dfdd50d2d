import type { Pool, PoolClient } from 'pg';
import { withSchemaLock } from './with-schema-lock.ts';

/**
 * The lease's table, schema-qualified: the engine's state connection (search path `flotilla_state`) checks it
 * in its own transactions (src/app/fence-state-connection.ts).
 */
export const LEASES_TABLE = 'public.flotilla_leases';

/**
 * The fence's check, in a transaction: the lease row while `holder` ($2) holds lease $1 with token $3,
 * unexpired by the database's clock, share-locked (`FOR KEY SHARE`) until the transaction ends — a takeover's
 * `FOR UPDATE` waits for it, the holder's renewals (no key change) do not. No row: the lease is lost.
 */
export const LEASE_HELD_SQL = `SELECT 1 AS held FROM ${LEASES_TABLE}
  WHERE name = $1 AND holder = $2 AND token = $3 AND expires_at > now()
  FOR KEY SHARE`;

/** The lease's table: one row per lease name, its holder, the fencing token and when it lapses. */
export const LEASES_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS ${LEASES_TABLE} (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    token BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
  )`;

/** A write was refused: this process no longer holds the lease with that token. */
export class LeaseLostError extends Error {
  constructor(name: string, token: number) {
    super(`lease '${name}' with token ${token} is no longer held by this process; the write was not made`);
    this.name = 'LeaseLostError';
  }
}

export interface LeaderLeaseOptions {
  pool: Pool;
  /** Which lease (`controller`). */
  name: string;
  /** This process, unique across the cluster (host, pid and a random part). */
  holder: string;
  /** How long a lease lasts without renewal. */
  ttlMs: number;
  /**
   * How long a fenced write may keep its transaction idle (the external write in flight) before the server
   * ends it; default six TTLs. Bounds how long a takeover waits for a paused leader's write.
   */
  writeGraceMs?: number;
}

export interface LeaderLease {
  /** Takes the lease if it is free or lapsed (or already this holder's): its fencing token, else null. */
  tryAcquire(): Promise<number | null>;
  /** Extends the lease held with `token`; false when it lapsed or another holder has it. */
  renew(token: number): Promise<boolean>;
  /**
   * Runs `write` in a transaction that first checks, and share-locks, the lease row: the write commits only
   * while `token` is current and unexpired, and a takeover waits for the commit. Throws LeaseLostError else.
   */
  withFence<T>(token: number, write: (client: PoolClient) => Promise<T>): Promise<T>;
  /** Who holds the lease now (unexpired, by the database's clock); null when nobody does. */
  current(): Promise<{ holder: string; token: number } | null>;
  /** Gives the lease up (it lapses at once), if still held with `token`. */
  release(token: number): Promise<void>;
}

/**
 * Leadership over PostgreSQL for the cluster's controller (issue #33): a lease row with a fencing token.
 * Time is the database's (`now()`), never a machine's clock, so skew between machines cannot make two
 * holders; the token grows by one at every change of holder, so a paused leader that wakes after losing the
 * lease cannot write (`withFence`).
 */
export function createLeaderLease(options: LeaderLeaseOptions): LeaderLease {
  const { pool, name, holder } = options;
  const ttlSeconds = options.ttlMs / 1000;
  const writeGraceMs = Math.max(1000, Math.round(options.writeGraceMs ?? options.ttlMs * 6));
  let tableReady: Promise<unknown> | null = null;
  const ready = () => {
    // Under the schema lock: two controllers starting together would race on CREATE TABLE IF NOT EXISTS.
    tableReady ??= withSchemaLock({ pool }, () => pool.query(LEASES_TABLE_SQL)).catch((error: unknown) => {
      tableReady = null;
      throw error;
    });
    return tableReady;
  };
  return {
    async tryAcquire() {
      await ready();
      // Unlocked first: a follower's try while the lease is live takes no lock the leader would wait on.
      const seen = await pool.query<{ holder: string; live: boolean }>(
        `SELECT holder, expires_at > now() AS live FROM ${LEASES_TABLE} WHERE name = $1`,
        [name],
      );
      const before = seen.rows[0];
      if (before?.live && before.holder !== holder) return null;
      const { client, release } = await checkOut(pool);
      try {
        await client.query('BEGIN');
        // Waiting for a paused holder's fenced write ends on the server after a TTL (the next try waits
        // again), so this connection is never left busy behind it.
        await client.query(`SET LOCAL lock_timeout = ${Math.max(100, Math.round(options.ttlMs))}`);
        await client.query(
          `INSERT INTO ${LEASES_TABLE} (name, holder, token, expires_at) VALUES ($1, '', 0, now())
           ON CONFLICT (name) DO NOTHING`,
          [name],
        );
        // FOR UPDATE conflicts with a fenced write's KEY SHARE: a takeover waits for the write in flight.
        const current = await client.query<{ holder: string; token: string; live: boolean }>(
          `SELECT holder, token, expires_at > now() AS live FROM ${LEASES_TABLE} WHERE name = $1 FOR UPDATE`,
          [name],
        );
        const row = current.rows[0];
        if (row === undefined || (row.live && row.holder !== holder)) {
          await client.query('ROLLBACK');
          return null;
        }
        const token = Number(row.token) + (row.live ? 0 : 1);
        await client.query(
          `UPDATE ${LEASES_TABLE} SET holder = $2, token = $3, expires_at = now() + make_interval(secs => $4)
            WHERE name = $1`,
          [name, holder, token, ttlSeconds],
        );
        await client.query('COMMIT');
        return token;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        // lock_not_available: a write of the holder is still in flight; not taken this time.
        if ((error as { code?: unknown }).code === '55P03') return null;
        throw error;
      } finally {
        release();
      }
    },
    async renew(token) {
      await ready();
      const result = await pool.query(
        `UPDATE ${LEASES_TABLE} SET expires_at = now() + make_interval(secs => $4)
          WHERE name = $1 AND holder = $2 AND token = $3 AND expires_at > now()`,
        [name, holder, token, ttlSeconds],
      );
      return result.rowCount === 1;
    },
    async withFence(token, write) {
      await ready();
      const { client, release, ended } = await checkOut(pool);
      try {
        await client.query('BEGIN');
        // A paused holder's transaction is ended by the server after the grace, so a takeover never waits
        // longer; its commit then fails and the write's database part is rolled back.
        await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${writeGraceMs}`);
        // KEY SHARE: the holder's own renewals (no key change) go on during a long write; a takeover's
        // FOR UPDATE waits for it.
        const held = await client.query(LEASE_HELD_SQL, [name, holder, token]);
        if (held.rowCount !== 1) throw new LeaseLostError(name, token);
        const value = await write(client);
        // Ended by the server meanwhile (held past the grace): the transaction was rolled back.
        const lost = ended();
        if (lost !== null) throw lost;
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw ended() ?? error;
      } finally {
        release();
      }
    },
    async current() {
      await ready();
      const result = await pool.query<{ holder: string; token: string }>(
        `SELECT holder, token FROM ${LEASES_TABLE} WHERE name = $1 AND expires_at > now()`,
        [name],
      );
      const row = result.rows[0];
      return row === undefined ? null : { holder: row.holder, token: Number(row.token) };
    },
    async release(token) {
      await ready();
      await pool.query(
        `UPDATE ${LEASES_TABLE} SET expires_at = now() WHERE name = $1 AND holder = $2 AND token = $3`,
        [name, holder, token],
      );
    },
  };
}

interface CheckedOut {
  client: PoolClient;
  /** The connection's error, if it ended while checked out (the server ended the session), else null. */
  ended(): Error | null;
  /** Back to the pool, or dropped from it when the connection ended. */
  release(): void;
}

/**
 * A connection of the pool for one transaction. pg emits a connection's error (the server ending an idle
 * transaction: `idle_in_transaction_session_timeout`, a restart) as an event that the pool listens to only
 * while the connection is idle in it; unheard while checked out it would be an uncaught exception, so the
 * process would die instead of the write failing. Heard here, it fails the transaction and drops the connection.
 */
async function checkOut(pool: Pool): Promise<CheckedOut> {
  const client = await pool.connect();
  let connectionError: Error | null = null;
  const onError = (error: Error) => {
    connectionError ??= new Error(`the fence's connection ended: ${error.message}`, { cause: error });
  };
  client.on('error', onError);
  return {
    client,
    ended: () => connectionError,
    release() {
      client.removeListener('error', onError);
      client.release(connectionError ?? undefined);
    },
  };
}
