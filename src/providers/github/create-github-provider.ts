import type { Logger } from '../../logging/logger.ts';
import type { SpecReader, WorkItemReader, WorkItemWriter } from '../types.ts';
import { createGitHubClient, type GitHubClientOptions } from './client/create-github-client.ts';
import type { GitHubQuotaSnapshot } from './client/create-github-quota.ts';
import { readGitHubToken } from './client/read-github-token.ts';
import { createGitHubSpecReader } from './specs/create-github-spec-reader.ts';
import { createGitHubWorkItems } from './work-items/create-github-work-items.ts';

export interface GitHubProviderOptions {
  owner: string;
  repo: string;
  /** Default: https://api.github.com. */
  apiUrl?: string;
  specsDir: string;
  /** Absent: the repository's default branch, asked of GitHub once. */
  defaultBranch?: string;
  /** Where the token comes from (`FLOTILLA_GITHUB_TOKEN`, else `GITHUB_TOKEN`); never the config file. */
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** Client tuning (tests shorten the 5xx retry delays). */
  client?: Pick<GitHubClientOptions, 'quota' | 'serverErrorRetry' | 'rateLimitRetries'>;
}

/**
 * The GitHub provider as built so far (issue #12): work items (issues) and specs (the default branch's
 * tree). Revisions (pull requests), pipelines (checks) and reviews are not built yet, so this is not a
 * `Provider`: nothing can hand it to the engine until they are.
 */
export interface GitHubProvider {
  workItemReader: WorkItemReader;
  workItemWriter: WorkItemWriter;
  specReader: SpecReader;
  /** The token's rate-limit budget and what the client spent, for the dashboard and `doctor`. */
  quota(): GitHubQuotaSnapshot;
}

export function createGitHubProvider(options: GitHubProviderOptions): GitHubProvider {
  const { owner, repo } = options;
  const { octokit, quota } = createGitHubClient({
    token: readGitHubToken(options.env),
    apiUrl: options.apiUrl,
    logger: options.logger,
    ...options.client,
  });
  const workItems = createGitHubWorkItems(octokit, { owner, repo });
  return {
    workItemReader: workItems.reader,
    workItemWriter: workItems.writer,
    specReader: createGitHubSpecReader(octokit, {
      owner,
      repo,
      defaultBranch: options.defaultBranch ?? null,
      specsDir: options.specsDir,
    }),
    quota: () => quota.snapshot(),
  };
}
