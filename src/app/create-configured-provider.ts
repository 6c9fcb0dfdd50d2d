import { join } from 'node:path';
import type { FlotillaConfig, FlotillaPaths } from '../config/index.ts';
import type { Logger } from '../logging/logger.ts';
import { createGitHubProvider, type GitHubProvider } from '../providers/github/create-github-provider.ts';
import { createLocalProvider, type LocalProvider } from '../providers/local/create-local-provider.ts';
import type { Database } from '../storage/index.ts';

/**
 * The provider with what the control plane needs besides the contract: `close()` (local: cancels checks in
 * flight; GitHub: nothing to release) and `runPendingChecks()` (local: (re)starts pending checks and waits for
 * them; GitHub: CI runs on GitHub, nothing to wait for). `kind` tells the local tracker (SQLite) apart.
 */
export type ControlPlaneProvider =
  | (LocalProvider & { kind: 'local' })
  | (GitHubProvider & { kind: 'github'; close(): Promise<void>; runPendingChecks(): Promise<void> });

export interface ConfiguredProviderOptions {
  repoRoot: string;
  config: FlotillaConfig;
  paths: FlotillaPaths;
  /** The local provider's tracker (`.flotilla/flotilla.db`); the GitHub provider keeps nothing in it. */
  db: Database;
  /** Where the GitHub token is read from (`FLOTILLA_GITHUB_TOKEN`, else `GITHUB_TOKEN`). */
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** `flotilla merge --squash|--rebase|--merge` over the config's `github.mergeMethod`. */
  mergeMethod?: 'merge' | 'squash' | 'rebase';
}

/**
 * The provider `flotilla.config.json` names: `local` (SQLite tracker, revision branches, local checks) or
 * `github` (issues, pull requests, GitHub's checks; token from the environment, never the config file).
 */
export function createConfiguredProvider(options: ConfiguredProviderOptions): ControlPlaneProvider {
  const { repoRoot, config, paths, db, logger } = options;
  if (config.provider === 'github') {
    const github = config.github;
    // The schema requires it for 'github'; a config built by hand may still lack it.
    if (github === undefined) {
      throw new Error("flotilla.config.json: github: expected { owner, repo } when provider is 'github'");
    }
    const provider = createGitHubProvider({
      owner: github.owner,
      repo: github.repo,
      ...(github.apiUrl !== undefined && { apiUrl: github.apiUrl }),
      ...(github.gitUrl !== undefined && { gitUrl: github.gitUrl }),
      specsDir: config.specsDir,
      defaultBranch: config.defaultBranch,
      scratchDir: paths.tmpDir,
      noChecksGraceSeconds: github.noChecksGrace,
      mergeMethod: options.mergeMethod ?? github.mergeMethod,
      answerAuthorAssociations: github.answerAuthorAssociations,
      mentionTrigger: github.mentionTrigger,
      env: options.env,
      logger,
    });
    return { ...provider, kind: 'github', close: async () => {}, runPendingChecks: async () => {} };
  }
  const provider = createLocalProvider({
    repoRoot,
    defaultBranch: config.defaultBranch,
    specsDir: config.specsDir,
    db,
    checksCommand: config.checks.command,
    checksTimeoutMs: config.checks.timeout * 1000,
    logsDir: join(paths.logsDir, 'checks'),
    logger,
  });
  return Object.assign(provider, { kind: 'local' as const });
}
