import type { Database } from 'better-sqlite3';
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
 * The SQLite half of the local provider: work items, revisions (without git), pipelines, reviews and
 * comments, with the in-memory double's semantics. Synchronous (better-sqlite3); the local provider wraps
 * it into the async provider interfaces. Every write runs in a transaction: an error leaves nothing behind.
 */
export interface SqliteTracker {
  workItems: TrackerWorkItems;
  revisions: TrackerRevisions;
  /** Read-only history of every item's revisions, reviews and checks, for `flotilla stats`. */
  outcomes: TrackerOutcomes;
  /** Runs `write` in one transaction (nested ones become savepoints): a throw leaves nothing behind. */
  transaction<T>(write: () => T): T;
}

export function createSqliteTracker(db: Database, options: SqliteTrackerOptions): SqliteTracker {
  const engineAuthor = options.engineAuthor ?? 'flotilla';
  const workItems = createTrackerWorkItems(db, { now: options.now, engineAuthor });
  const revisions = createTrackerRevisions(db, { now: options.now, engineAuthor, workItems });
  return {
    workItems,
    revisions,
    outcomes: createTrackerOutcomes(db, workItems),
    transaction: (write) => db.transaction(write)(),
  };
}
