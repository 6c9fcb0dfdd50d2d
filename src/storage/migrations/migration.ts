import type { Database } from 'better-sqlite3';

/** One schema step. Versions start at 1 and increase by one; a released migration is never edited. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}
