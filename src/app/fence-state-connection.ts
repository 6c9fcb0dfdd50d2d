import { LEASE_HELD_SQL, LeaseLostError } from '../cluster/create-leader-lease.ts';
import type { SqlConnection, SqlValue } from '../storage/index.ts';

/** The controller lease a state connection's writes are fenced with (src/cluster/README.md, Fencing). */
export interface StateLease {
  /** The lease's name (`controller`). */
  name: string;
  /** This process, as the lease row names it. */
  holder: string;
  token: number;
  /** Leading by this process's own reckoning (the leadership's `leading()`): when false, no round trip. */
  leading(): boolean;
  /** A write was refused: this process is deposed; called before the write's error is thrown. */
  onLost(error: LeaseLostError): void;
}

/**
 * The cluster's state connection (PostgreSQL, `flotilla_state`) with every statement fenced by the
 * controller's lease, as `withFence` fences the engine's external writes: a transaction's first statement is
 * preceded, in the same transaction, by the lease check (`LEASE_HELD_SQL`: the row while this holder has this
 * token, share-locked until the commit), so a deposed controller's state writes fail closed with
 * `LeaseLostError` and roll back, and a takeover waits for a state transaction in flight. A statement outside
 * a transaction runs in one of its own. An empty transaction (most engine events write nothing here) still
 * costs no round trip; a writing one costs one more. The port stays synchronous.
 */
export function fenceStateConnection(sql: SqlConnection, lease: StateLease): SqlConnection {
  let depth = 0;
  let checked = false;
  const refuse = (): never => {
    const error = new LeaseLostError(lease.name, lease.token);
    lease.onLost(error);
    throw error;
  };
  const check = (): void => {
    if (checked) return;
    if (!lease.leading()) refuse();
    // `$n` placeholders pass through the port unchanged (it rewrites only `?`).
    const held = sql.get<{ held: number }>(LEASE_HELD_SQL, [lease.name, lease.holder, lease.token]);
    if (held === undefined) refuse();
    checked = true;
  };
  const transaction = <T>(body: () => T): T => {
    if (depth === 0) checked = false;
    // Checked in the outer transaction, never inside a savepoint: rolled back to, it would drop the row's lock.
    else check();
    depth += 1;
    try {
      return sql.transaction(body);
    } finally {
      depth -= 1;
      if (depth === 0) checked = false;
    }
  };
  /** A statement: checked first inside the transaction it belongs to (one of its own outside any). */
  const fenced = <T>(statement: () => T): T => {
    if (depth === 0) return transaction(() => fenced(statement));
    check();
    return statement();
  };
  return {
    dialect: sql.dialect,
    name: sql.name,
    run: (text: string, params?: readonly SqlValue[]) => fenced(() => sql.run(text, params)),
    get: <Row>(text: string, params?: readonly SqlValue[]) => fenced(() => sql.get<Row>(text, params)),
    all: <Row>(text: string, params?: readonly SqlValue[]) => fenced(() => sql.all<Row>(text, params)),
    transaction,
    close: () => sql.close(),
  };
}
