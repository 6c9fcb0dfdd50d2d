import { type ControlPlaneProvider, createConfiguredProvider } from '../../app/create-configured-provider.ts';
import { silentLogger } from '../../logging/logger.ts';
import { messageOf } from '../../shared/message-of.ts';
import { CliError } from '../support/cli-error.ts';
import type { CliContext } from '../support/open-cli-context.ts';

/** The GitHub provider the tracker commands use when `provider` is `github`. */
export type GitHubCliProvider = ControlPlaneProvider;

/**
 * The configured GitHub provider for one CLI command (token from `FLOTILLA_GITHUB_TOKEN`, else
 * `GITHUB_TOKEN`); no token is a usage error (exit 2) naming both variables.
 */
export async function openGitHubCliProvider(
  context: CliContext,
  options: { mergeMethod?: 'merge' | 'squash' | 'rebase' } = {},
): Promise<GitHubCliProvider> {
  let provider: ControlPlaneProvider;
  try {
    provider = await createConfiguredProvider({
      repoRoot: context.repoRoot,
      config: context.config,
      paths: context.paths,
      db: context.db,
      env: process.env,
      logger: silentLogger,
      ...(options.mergeMethod !== undefined && { mergeMethod: options.mergeMethod }),
    });
  } catch (error) {
    throw new CliError(messageOf(error), { exitCode: 2 });
  }
  return provider;
}
