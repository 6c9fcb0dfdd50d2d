import type { Logger } from '../../../logging/logger.ts';
import { messageOf } from '../../../shared/message-of.ts';
import { createGitHubClient } from '../client/create-github-client.ts';
import type { GitHubQuotaSnapshot } from '../client/create-github-quota.ts';
import { GITHUB_APP_VARIABLES, readGitHubCredentials } from '../client/read-github-credentials.ts';
import {
  GITHUB_REVIEWER_APP_PREFIX,
  readGitHubReviewerCredentials,
} from '../client/read-github-reviewer-credentials.ts';
import { WEBHOOK_SECRET_VARIABLE } from '../webhooks/create-github-webhook-receiver.ts';
import {
  diffGitHubLabels,
  type GitHubLabelsOutcome,
  listGitHubLabels,
  setupGitHubLabels,
} from './setup-github-labels.ts';
import { type GitHubHookSummary, listGitHubWebhooks, setupGitHubWebhook } from './setup-github-webhook.ts';

export interface GitHubAdminOptions {
  owner: string;
  repo: string;
  apiUrl?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
}

/** What `flotilla doctor` reports about the GitHub side. */
export interface GitHubAccessReport {
  /** The token's user (or the App's bot), and where the credentials came from (a variable, or the App's). */
  login: string;
  tokenVariable: string;
  /** The classic token's scopes (`x-oauth-scopes`); null for fine-grained and App tokens, which send none. */
  scopes: string[] | null;
  /** The token's permissions on the repository, as GitHub reports them. */
  permissions: { admin: boolean; maintain: boolean; push: boolean; triage: boolean; pull: boolean } | null;
  /** What Flotilla needs and the token lacks (issues, labels and pull requests: write; contents: push). */
  missingPermissions: string[];
  defaultBranch: string;
  /** Labels of the set missing on the repository, and those whose colour or description differ. */
  missingLabels: string[];
  differingLabels: string[];
  quota: GitHubQuotaSnapshot;
  /**
   * The identity that posts reviews when it is a separate one (`FLOTILLA_GITHUB_REVIEWER_*`): its login and
   * where it came from; null when reviews go out as `login` (who opens the pull requests).
   */
  reviewer: { login: string; source: string } | null;
  /**
   * With FLOTILLA_GITHUB_WEBHOOK_SECRET set (webhooks configured): the repository's hooks, or why they could
   * not be listed (listing needs admin rights); null when webhooks are not configured.
   */
  webhooks: { hooks: GitHubHookSummary[] } | { error: string } | null;
}

/**
 * The repository-level operations of the CLI (`flotilla github setup-labels`, `flotilla doctor`): the same
 * client as the provider (token from the environment, throttling, retries, quota), none of the provider.
 */
export function createGitHubAdmin(options: GitHubAdminOptions) {
  const repository = { owner: options.owner, repo: options.repo };
  const credentials = readGitHubCredentials(options.env);
  const client = createGitHubClient({
    ...credentials,
    ...(options.apiUrl !== undefined && { apiUrl: options.apiUrl }),
    logger: options.logger,
    // One-shot commands: a short 5xx retry, not the engine's patient one.
    serverErrorRetry: { baseDelayMs: 200, retries: 2 },
  });
  const { octokit, quota } = client;
  const reviewerCredentials = readGitHubReviewerCredentials(options.env);
  const reviewerClient =
    reviewerCredentials === null
      ? null
      : createGitHubClient({
          ...reviewerCredentials,
          ...(options.apiUrl !== undefined && { apiUrl: options.apiUrl }),
          logger: options.logger,
          serverErrorRetry: { baseDelayMs: 200, retries: 2 },
        });
  return {
    setupLabels(): Promise<GitHubLabelsOutcome> {
      return setupGitHubLabels(octokit, repository);
    },
    setupWebhook(webhook: { url: string; secret: string }) {
      return setupGitHubWebhook(octokit, repository, webhook);
    },
    async check(): Promise<GitHubAccessReport> {
      const login = await client.login();
      const { data: repo, headers } = await octokit.rest.repos.get(repository);
      // Classic tokens send their scopes on every response; fine-grained and App tokens send none.
      const scopesHeader = headers['x-oauth-scopes'];
      const scopes =
        typeof scopesHeader === 'string'
          ? scopesHeader
              .split(',')
              .map((scope) => scope.trim())
              .filter(Boolean)
          : null;
      const permissions = repo.permissions
        ? {
            admin: repo.permissions.admin,
            maintain: repo.permissions.maintain ?? repo.permissions.admin,
            push: repo.permissions.push,
            triage: repo.permissions.triage ?? repo.permissions.push,
            pull: repo.permissions.pull,
          }
        : null;
      const missingPermissions: string[] = [];
      // Pushing revision branches and opening pull requests need write access; labels and issues need triage.
      if (permissions !== null && !permissions.push)
        missingPermissions.push('write (push) access to the repository');
      if (
        scopes !== null &&
        !scopes.some((scope) => scope === 'repo' || (scope === 'public_repo' && !repo.private))
      )
        missingPermissions.push(`the 'repo' scope (the token has: ${scopes.join(', ') || 'none'})`);
      const labels = diffGitHubLabels(await listGitHubLabels(octokit, repository));
      const webhooks =
        (options.env[WEBHOOK_SECRET_VARIABLE] ?? '') === ''
          ? null
          : await listGitHubWebhooks(octokit, repository).then(
              (hooks) => ({ hooks }),
              (error: unknown) => ({ error: messageOf(error) }),
            );
      return {
        webhooks,
        login,
        tokenVariable:
          'token' in credentials
            ? credentials.token.variable
            : `a GitHub App (${GITHUB_APP_VARIABLES.appId})`,
        scopes,
        permissions,
        missingPermissions,
        defaultBranch: repo.default_branch,
        missingLabels: labels.missing.map((label) => label.name),
        differingLabels: labels.differing.map((label) => label.name),
        quota: quota.snapshot(),
        reviewer:
          reviewerClient === null || reviewerCredentials === null
            ? null
            : {
                login: await reviewerClient.login(),
                source:
                  'token' in reviewerCredentials
                    ? reviewerCredentials.token.variable
                    : `a GitHub App (${GITHUB_REVIEWER_APP_PREFIX}ID)`,
              },
      };
    },
  };
}
