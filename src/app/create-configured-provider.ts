import type { FlotillaConfig, FlotillaPaths } from '../config/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { ConfiguredProvider, MergeMethod } from '../providers/provider-descriptor.ts';
import { findProvider, providerSettingsOf } from '../providers/registry.ts';
import type { Database, SqlConnection } from '../storage/index.ts';
import { openClusterState } from './open-cluster-state.ts';

/**
 * The provider with what the control plane needs besides the contract: `close()` and `runPendingChecks()`,
 * and the capabilities the CLI asks for (src/providers/provider-descriptor.ts).
 */
export type ControlPlaneProvider = ConfiguredProvider;

export interface ConfiguredProviderOptions {
  repoRoot: string;
  config: FlotillaConfig;
  paths: FlotillaPaths;
  /** The local tracker's database (`.flotilla/flotilla.db`); a provider that keeps nothing there ignores it. */
  db: Database;
  /** Where the provider reads its credentials (e.g. `FLOTILLA_GITHUB_TOKEN`). */
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** `flotilla merge --squash|--rebase|--merge` over the provider's configured merge method. */
  mergeMethod?: MergeMethod;
  /**
   * Cluster mode: the open connection to the cluster's PostgreSQL (the control plane's), for a provider that
   * tracks locally. Absent in cluster mode, such a provider gets a connection of its own, closed with it.
   */
  sharedState?: SqlConnection;
}

/**
 * The provider `flotilla.config.json` names, from the provider registry (src/providers/registry.ts), built
 * with its own config block. Throws, naming the field, for an unknown provider or a missing block.
 */
export async function createConfiguredProvider(
  options: ConfiguredProviderOptions,
): Promise<ControlPlaneProvider> {
  const { config, paths } = options;
  const descriptor = findProvider(config.provider);
  if (descriptor === undefined) {
    throw new Error(`flotilla.config.json: provider: unknown provider '${config.provider}'`);
  }
  const settings = providerSettingsOf(descriptor, config);
  // The schema requires the block; a config built by hand may still lack it.
  if (descriptor.config !== undefined && settings === undefined) {
    throw new Error(
      `flotilla.config.json: ${descriptor.name}: expected ${descriptor.config.expected} when provider is '${descriptor.name}'`,
    );
  }
  // Cluster mode: a provider that tracks locally keeps its tracker in the cluster's PostgreSQL.
  const own =
    descriptor.tracksLocally && options.sharedState === undefined
      ? openClusterState(config, options.env)
      : undefined;
  const trackerState = descriptor.tracksLocally ? (options.sharedState ?? own) : undefined;
  let provider: ControlPlaneProvider;
  try {
    provider = await descriptor.create(
      {
        repoRoot: options.repoRoot,
        defaultBranch: config.defaultBranch,
        specsDir: config.specsDir,
        checks: config.checks,
        scratchDir: paths.tmpDir,
        logsDir: paths.logsDir,
        db: options.db,
        env: options.env,
        logger: options.logger,
        ...(options.mergeMethod !== undefined && { mergeMethod: options.mergeMethod }),
        ...(trackerState !== undefined && { trackerState }),
        ...(config.cluster !== undefined && { sharedRemote: config.cluster.remote }),
      },
      settings,
    );
  } catch (error) {
    own?.close();
    throw error;
  }
  return own === undefined ? provider : closingAlso(provider, own);
}

/** `provider`, whose `close()` also closes the connection it was given. */
function closingAlso(provider: ControlPlaneProvider, connection: SqlConnection): ControlPlaneProvider {
  const close = provider.close.bind(provider);
  return Object.assign(provider, {
    close: async () => {
      try {
        await close();
      } finally {
        connection.close();
      }
    },
  });
}
