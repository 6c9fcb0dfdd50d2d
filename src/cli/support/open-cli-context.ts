import { openClusterState } from '../../app/open-cluster-state.ts';
import {
  type FlotillaConfig,
  type FlotillaPaths,
  loadConfig,
  resolveFlotillaPaths,
} from '../../config/index.ts';
import { periodKeysOf } from '../../engine/budget/budget-calendar.ts';
import type {
  ConfiguredProvider,
  ItemLinks,
  MergeMethod,
  UnsupportedCommand,
} from '../../providers/provider-descriptor.ts';
import { findProvider, providerSettingsOf } from '../../providers/registry.ts';
import { messageOf } from '../../shared/message-of.ts';
import {
  createEngineStatePersistence,
  type Database,
  type EngineStatePersistence,
  openDatabase,
  type SqlConnection,
} from '../../storage/index.ts';
import { CliError } from './cli-error.ts';
import { findRepoRoot } from './find-repo-root.ts';

/**
 * The configured provider as the commands see it (src/providers/registry.ts): what it is, known without
 * creating it, and `open()`, which creates it on first use (a missing token is then a usage error, exit 2).
 */
export interface CliProvider {
  name: string;
  /** Its work items live in `.flotilla/flotilla.db`, or in cluster mode the cluster's PostgreSQL (`localTracker`). */
  tracksLocally: boolean;
  /** Its items' web pages, when it has them (GitHub issues). */
  links: ItemLinks | undefined;
  /** Its refusal of a command it does not support, or undefined. */
  refusal(command: UnsupportedCommand): string | undefined;
  /** The provider; `mergeMethod` overrides its configured merge method (`flotilla merge --squash`). */
  open(options?: { mergeMethod?: MergeMethod }): Promise<ConfiguredProvider>;
}

/** What every tracker/history command works with. `close()` closes the provider and the database. */
export interface CliContext {
  repoRoot: string;
  config: FlotillaConfig;
  paths: FlotillaPaths;
  /** Flotilla's own database (the local provider's tracker; the engine state unless in cluster mode). */
  db: Database;
  provider: CliProvider;
  history: EngineStatePersistence;
  close(): Promise<void>;
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
  const config = loaded.config;
  const descriptor = findProvider(config.provider);
  // The schema accepts only the registry's names.
  if (descriptor === undefined) throw new Error(`unknown provider '${config.provider}'`);
  const settings = providerSettingsOf(descriptor, config);
  const opened = new Map<string, Promise<ConfiguredProvider>>();
  const open = (options: { mergeMethod?: MergeMethod } = {}): Promise<ConfiguredProvider> => {
    const key = options.mergeMethod ?? '';
    let provider = opened.get(key);
    if (provider === undefined) {
      provider = openConfiguredProvider({ repoRoot, config, paths, db, ...options });
      opened.set(key, provider);
    }
    return provider;
  };
  let history: EngineStatePersistence | undefined;
  let sharedState: SqlConnection | undefined;
  return {
    repoRoot,
    config,
    paths,
    db,
    provider: {
      name: descriptor.name,
      tracksLocally: descriptor.tracksLocally,
      links: settings === undefined ? undefined : descriptor.links?.(settings),
      refusal: (command) => descriptor.unsupported?.[command],
      open,
    },
    // Opened on first use: in cluster mode it connects to PostgreSQL, which tracker-only commands never need.
    get history() {
      history ??= openHistory(config, db, (connection) => {
        sharedState = connection;
      });
      return history;
    },
    close: async () => {
      const providers = await Promise.allSettled(opened.values());
      for (const provider of providers) if (provider.status === 'fulfilled') await provider.value.close();
      if (db.open) db.close();
      sharedState?.close();
    },
  };
}

/**
 * The engine state (runs, budgets, memories, proposals …): in `db`, or in cluster mode in the cluster's
 * PostgreSQL (what every controller recorded); an unset variable or a server that does not answer is exit 1, naming it.
 */
function openHistory(
  config: FlotillaConfig,
  db: Database,
  opened: (connection: SqlConnection) => void,
): EngineStatePersistence {
  let sharedState: SqlConnection | undefined;
  try {
    sharedState = openClusterState(config, process.env);
  } catch (error) {
    throw new CliError(messageOf(error), { exitCode: 1 });
  }
  if (sharedState !== undefined) opened(sharedState);
  return createEngineStatePersistence(db, {
    periodKeysOf: (at) => periodKeysOf(at, config.budgets.timeZone),
    ...(sharedState !== undefined && { sharedState }),
  });
}

/** The configured provider for one CLI command; what stops it being created (no token) is exit 2. */
async function openConfiguredProvider(options: {
  repoRoot: string;
  config: FlotillaConfig;
  paths: FlotillaPaths;
  db: Database;
  mergeMethod?: MergeMethod;
}): Promise<ConfiguredProvider> {
  const { createConfiguredProvider } = await import('../../app/create-configured-provider.ts');
  const { silentLogger } = await import('../../logging/logger.ts');
  try {
    return await createConfiguredProvider({ ...options, env: process.env, logger: silentLogger });
  } catch (error) {
    throw new CliError(messageOf(error), { exitCode: 2 });
  }
}
