import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { MIGRATIONS } from '../../../src/storage/migrations/index.ts';
import { type Database, openDatabase } from '../../../src/storage/open-database.ts';
import { createTempDir } from '../shared/create-temp-dir.ts';

/** One database file in a fresh temporary directory per test, opened at two schema versions. */
export interface MigrationFixture {
  /** Opens the file with only the first `count` migrations: the schema as a release before the one tested had it. */
  openBefore(count: number): Database;
  /** Opens the same file with every migration: the ones after `count` run on what `openBefore` left. */
  openAfter(): Database;
}

/**
 * Registers a fresh temporary directory per test (removed after it) and returns the fixture that opens its
 * `flotilla.db`. Call at the top of a migration's test file.
 */
export function installMigrationFixture(): MigrationFixture {
  let dir: ReturnType<typeof createTempDir> | undefined;
  beforeEach(() => {
    dir = createTempDir();
  });
  afterEach(() => {
    dir?.remove();
    dir = undefined;
  });
  const path = () => {
    if (dir === undefined) throw new Error('installMigrationFixture: use the fixture inside a test');
    return join(dir.path, 'flotilla.db');
  };
  return {
    openBefore: (count) => openDatabase(path(), { migrations: MIGRATIONS.slice(0, count) }),
    openAfter: () => openDatabase(path()),
  };
}

/** The indexes on `agent_runs` every migration that rebuilds the table must keep. */
export const AGENT_RUN_INDEXES = [
  'agent_runs_active',
  'agent_runs_by_requested_at',
  'agent_runs_by_work_item',
];

/** The names of the indexes on `agent_runs`, by name. */
export function listAgentRunIndexes(db: Database): string[] {
  return db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'agent_runs' ORDER BY name")
    .all()
    .map((row) => (row as { name: string }).name);
}

/**
 * An INSERT of a failed implementor run of item 7 taking (session_id, failure_reason): `error` and the
 * optional `account` are fixed, the other columns are the ones every schema since migration 3 has.
 */
export function buildInsertFailedRun(error: string, account?: string): string {
  const accountColumn = account === undefined ? '' : ', account';
  const accountValue = account === undefined ? '' : `, '${account}'`;
  return `
  INSERT INTO agent_runs (session_id, role, status, work_item_id, branch_name, requested_at, ended_at,
    failure_reason, error, runtime${accountColumn})
  VALUES (?, 'implementor', 'failed', '7', 'flotilla/7', 10, 20, ?, '${error}', 'claude'${accountValue})`;
}
