// Every program that compiles this file (the web dashboard's typecheck too) gets pg-native's declaration.
/// <reference path="./pg-native.d.ts" />
import { createRequire } from 'node:module';
import type Client from 'pg-native';
import { messageOf } from '../../shared/message-of.ts';
import { StorageError } from '../storage-error.ts';
import type { SqlConnection, SqlValue } from './sql-connection.ts';

/** Number types (int2, int4, int8, float4, float8, numeric) read as JS numbers, like SQLite's INTEGER/REAL. */
const NUMERIC_OIDS = new Set([20, 21, 23, 700, 701, 1700]);
const BOOLEAN_OID = 16;

/** Clients just ended, kept from the garbage collector until their poll handle is closed (see `close`). */
const closingClients = new Set<Client>();

const TYPES = {
  getTypeParser(oid: number): (value: string) => unknown {
    if (NUMERIC_OIDS.has(oid)) return Number;
    if (oid === BOOLEAN_OID) return (value) => value === 't';
    return (value) => value;
  },
};

/** `postgres://user:secret@host:5432/db?…` → `host:5432/db`: what errors may name. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `PostgreSQL ${parsed.host}${parsed.pathname}`;
  } catch {
    return 'PostgreSQL (unparsable URL)';
  }
}

/** `?` placeholders → `$1, $2, …`, leaving quoted text alone. */
export function toDollarPlaceholders(sql: string): string {
  let index = 0;
  let quoted = false;
  let out = '';
  for (const char of sql) {
    if (char === "'") quoted = !quoted;
    out += char === '?' && !quoted ? `$${++index}` : char;
  }
  return out;
}

/**
 * The SQL port over one synchronous libpq connection (pg-native's `querySync`: the repositories stay
 * synchronous, src/storage/README.md "Two backends"). `searchPath` is the schema the tables live in.
 */
export function createPostgresConnection(url: string, options: { searchPath?: string } = {}): SqlConnection {
  const name = describePostgresUrl(url);
  // Loaded on first use: the native addon is for cluster mode, and every CLI command imports storage.
  const PgNative = createRequire(import.meta.url)('pg-native') as typeof Client;
  const client = new PgNative({ types: TYPES });
  try {
    client.connectSync(url);
    // Notices (`… already exists, skipping`) would go to stderr: libpq prints them by default.
    client.querySync('SET client_min_messages TO warning');
    if (options.searchPath !== undefined) client.querySync(`SET search_path TO ${options.searchPath}`);
  } catch (error) {
    release(client);
    throw new StorageError(
      `cannot connect to ${name}: ${messageOf(error).trim()}; expected a PostgreSQL server`,
      {
        cause: error,
      },
    );
  }
  const texts = new Map<string, string>();
  const execute = (sql: string, params: readonly SqlValue[]): Record<string, unknown>[] => {
    let text = texts.get(sql);
    if (text === undefined) {
      text = toDollarPlaceholders(sql);
      texts.set(sql, text);
    }
    try {
      return client.querySync(text, params);
    } catch (error) {
      throw new StorageError(`${name}: ${messageOf(error).trim()} (in: ${sql.trim().slice(0, 120)})`, {
        cause: error,
      });
    }
  };
  // A transaction begins at its first statement: the engine's persistence opens one per event, and most
  // events write nothing here, so an empty one costs no round trip.
  let depth = 0;
  let begun = false;
  const query = (sql: string, params: readonly SqlValue[]): Record<string, unknown>[] => {
    if (depth > 0 && !begun) {
      begun = true;
      execute('BEGIN', []);
    }
    return execute(sql, params);
  };
  const end = (level: number, ok: boolean): void => {
    if (level > 0) {
      query(ok ? `RELEASE SAVEPOINT flotilla_${level}` : `ROLLBACK TO SAVEPOINT flotilla_${level}`, []);
      return;
    }
    if (!begun) return;
    begun = false;
    // A COMMIT that fails has rolled the transaction back: nothing is half-written.
    execute(ok ? 'COMMIT' : 'ROLLBACK', []);
  };
  let open = true;
  return {
    dialect: 'postgres',
    name,
    run(sql, params = []) {
      query(sql, params);
    },
    get<Row>(sql: string, params: readonly SqlValue[] = []) {
      return query(sql, params)[0] as Row | undefined;
    },
    all<Row>(sql: string, params: readonly SqlValue[] = []) {
      return query(sql, params) as Row[];
    },
    transaction<T>(body: () => T): T {
      const level = depth;
      if (level > 0) query(`SAVEPOINT flotilla_${level}`, []);
      depth = level + 1;
      let result: T;
      try {
        result = body();
        if (result instanceof Promise)
          throw new StorageError(`${name}: a transaction's body must be synchronous`);
      } catch (error) {
        depth = level;
        try {
          end(level, false);
        } catch {
          // The body's error is the one to report; a failed rollback leaves nothing committed either.
        }
        throw error;
      }
      depth = level;
      end(level, true);
      return result;
    },
    close() {
      if (!open) return;
      open = false;
      release(client);
    },
  };
}

/**
 * Ends the client. libpq's addon closes its poll handle, embedded in the client, asynchronously (uv_close
 * without a callback) and lets the client be collected at once: were it collected before libuv's next close
 * phase, libuv would read freed memory (it aborts the process). So it is held until the next loop iteration.
 */
function release(client: Client): void {
  client.end();
  closingClients.add(client);
  setImmediate(() => setImmediate(() => closingClients.delete(client)));
}
