import type { GitHubCliProvider } from '../github/open-github-cli-provider.ts';
import type { CliContext } from './open-cli-context.ts';

/**
 * The configured GitHub provider for a tracker command, loaded on use: Octokit and the provider are not
 * needed by `--help`, the hooks or the local provider's commands.
 */
export async function loadGitHubProvider(
  context: CliContext,
  options: { mergeMethod?: 'merge' | 'squash' | 'rebase' } = {},
): Promise<GitHubCliProvider> {
  const { openGitHubCliProvider } = await import('../github/open-github-cli-provider.ts');
  return openGitHubCliProvider(context, options);
}

/** The tracker commands' GitHub versions (src/cli/github/), loaded on use like the provider. */
export async function loadGitHubTrackerCommands() {
  const { githubTrackerCommands } = await import('../github/github-tracker-commands.ts');
  return githubTrackerCommands;
}
