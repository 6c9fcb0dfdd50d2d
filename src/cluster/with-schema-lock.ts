import pg from 'pg';

/** The advisory lock key every Flotilla process takes around schema changes (a fixed arbitrary number). */
const SCHEMA_LOCK_KEY = 3_303_303;

/**
 * Runs `change` holding a PostgreSQL advisory lock on its own connection: processes starting together
 * (several worker slots, a controller) would otherwise race on `CREATE … IF NOT EXISTS` and fail with
 * "tuple concurrently updated".
 */
export async function withSchemaLock<T>(
  target: { pool: pg.Pool } | { url: string },
  change: () => Promise<T>,
): Promise<T> {
  const client =
    'pool' in target ? await target.pool.connect() : new pg.Client({ connectionString: target.url });
  const standalone = !('pool' in target);
  try {
    if (standalone) await (client as pg.Client).connect();
    // Tried, never waited on: a session blocked in pg_advisory_lock is a transaction in flight, which a
    // migration's CREATE INDEX CONCURRENTLY in the lock holder would wait for — a deadlock nobody detects.
    for (;;) {
      const taken = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1) AS taken', [
        SCHEMA_LOCK_KEY,
      ]);
      if (taken.rows[0]?.taken === true) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    try {
      return await change();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    if (standalone) await (client as pg.Client).end().catch(() => undefined);
    else (client as pg.PoolClient).release();
  }
}
