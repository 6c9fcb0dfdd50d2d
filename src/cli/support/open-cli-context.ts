import {
  type FlotillaConfig,
  type FlotillaPaths,
  loadConfig,
  resolveFlotillaPaths,
} from '../../config/index.ts';
import { periodKeysOf } from '../../engine/budget/budget-calendar.ts';
import { messageOf } from '../../shared/message-of.ts';
import {
  createEngineStatePersistence,
  createSqliteTracker,
  type Database,
  type EngineStatePersistence,
  openDatabase,
  type SqliteTracker,
} from '../../storage/index.ts';
import { CliError } from './cli-error.ts';
import { findRepoRoot } from './find-repo-root.ts';

/** What every tracker/history command works with. `close()` closes the database. */
export interface CliContext {
  repoRoot: string;
  config: FlotillaConfig;
  paths: FlotillaPaths;
  db: Database;
  tracker: SqliteTracker;
  history: EngineStatePersistence;
  close(): void;
}

/**
 * Finds the repository around the working directory, loads its config and opens `.flotilla/flotilla.db`
 * (created and migrated if missing, so a fresh repository simply has an empty tracker). Not a git repository
 * or an invalid config: CliError exit 2; a database that cannot be opened: exit 1.
 */
export async function openCliContext(cwd: string = process.cwd()): Promise<CliContext> {
  const repoRoot = await findRepoRoot(cwd);
  if (repoRoot === null) {
    throw new CliError(
      `${cwd} is not inside a git repository; cd into your project (or run 'git init' and 'flotilla init' first)`,
      { exitCode: 2 },
    );
  }
  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) {
    throw new CliError(`invalid configuration in ${loaded.path}; fix these and retry:`, {
      exitCode: 2,
      details: loaded.errors,
    });
  }
  const paths = resolveFlotillaPaths(repoRoot);
  let db: Database;
  try {
    db = openDatabase(paths.dbPath);
  } catch (error) {
    throw new CliError(messageOf(error), { exitCode: 1 });
  }
  return {
    repoRoot,
    config: loaded.config,
    paths,
    db,
    tracker: createSqliteTracker(db, { now: () => Date.now(), engineAuthor: 'flotilla' }),
    history: createEngineStatePersistence(db, {
      periodKeysOf: (at) => periodKeysOf(at, loaded.config.budgets.timeZone),
    }),
    close: () => {
      if (db.open) db.close();
    },
  };
}
