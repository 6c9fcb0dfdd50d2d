import { asSqlConnection, type SqlTarget } from '../sql/as-sql-connection.ts';
import { createTrackerOutcomes, type TrackerOutcomes } from './create-tracker-outcomes.ts';
import { createTrackerRevisions, type TrackerRevisions } from './create-tracker-revisions.ts';
import { createTrackerWorkItems, type TrackerWorkItems } from './create-tracker-work-items.ts';
import type { TrackerClock } from './tracker-clock.ts';

export interface SqliteTrackerOptions {
  /** Epoch milliseconds, for createdAt and other timestamps. */
  now: TrackerClock;
  /** Author of engine-created revisions, reviews and comments. Default `flotilla`. */
  engineAuthor?: string;
}

/**
 * The tracker half of the local provider: work items, revisions (without git), pipelines, reviews and
 * comments, with the in-memory double's semantics. On the SQL port (src/storage/README.md "Two backends"):
 * `.flotilla/flotilla.db` on one machine, the cluster's PostgreSQL in cluster mode. Synchronous; the local
 * provider wraps it into the async provider interfaces. Every write runs in a transaction: an error leaves
 * nothing behind. (The name stays from when SQLite was its only home.)
 */
export interface SqliteTracker {
  workItems: TrackerWorkItems;
  revisions: TrackerRevisions;
  /** Read-only history of every item's revisions, reviews and checks, for `flotilla stats`. */
  outcomes: TrackerOutcomes;
  /** Runs `write` in one transaction (nested ones become savepoints): a throw leaves nothing behind. */
  transaction<T>(write: () => T): T;
}

export function createSqliteTracker(target: SqlTarget, options: SqliteTrackerOptions): SqliteTracker {
  const sql = asSqlConnection(target);
  const engineAuthor = options.engineAuthor ?? 'flotilla';
  const workItems = createTrackerWorkItems(sql, { now: options.now, engineAuthor });
  const revisions = createTrackerRevisions(sql, { now: options.now, engineAuthor, workItems });
  return {
    workItems,
    revisions,
    outcomes: createTrackerOutcomes(sql, workItems),
    transaction: (write) => sql.transaction(write),
  };
}
