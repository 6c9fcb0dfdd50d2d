import type { FlotillaConfig, FlotillaPaths } from '../config/index.ts';
import type { Logger } from '../logging/logger.ts';
import type { ConfiguredProvider, MergeMethod } from '../providers/provider-descriptor.ts';
import { findProvider, providerSettingsOf } from '../providers/registry.ts';
import type { Database } from '../storage/index.ts';

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
  return descriptor.create(
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
    },
    settings,
  );
}
