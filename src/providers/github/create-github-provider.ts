import { join } from 'node:path';
import { parseTaskContextComment } from '../../domain/index.ts';
import type { Logger } from '../../logging/logger.ts';
import type { Provider } from '../types.ts';
import type { CircuitSnapshot } from './client/create-circuit-breaker.ts';
import { createGitHubClient, type GitHubClientOptions } from './client/create-github-client.ts';
import type { GitHubQuotaSnapshot } from './client/create-github-quota.ts';
import { readGitHubCredentials } from './client/read-github-credentials.ts';
import { readGitHubReviewerCredentials } from './client/read-github-reviewer-credentials.ts';
import { DEFAULT_ANSWER_AUTHOR_ASSOCIATIONS, DEFAULT_MENTION_TRIGGER } from './github-config-schema.ts';
import { createGitHubFeedback } from './revisions/create-github-feedback.ts';
import { createGitHubHistory } from './revisions/create-github-history.ts';
import { createGitHubMergeQueue } from './revisions/create-github-merge-queue.ts';
import { createGitHubRevisions } from './revisions/create-github-revisions.ts';
import { createGitHubWorkBase } from './revisions/create-github-work-base.ts';
import { createMergeInspector } from './revisions/inspect-merge-in-mirror.ts';
import type { GitRemote } from './revisions/push-patch-branch.ts';
import { createGitHubSpecReader } from './specs/create-github-spec-reader.ts';
import { createGitHubCommentReader } from './work-items/create-github-comment-reader.ts';
import { createGitHubWorkItems } from './work-items/create-github-work-items.ts';

export interface GitHubProviderOptions {
  owner: string;
  repo: string;
  /** Default: https://api.github.com. */
  apiUrl?: string | undefined;
  specsDir: string;
  /** Absent: the repository's default branch, asked of GitHub once. */
  defaultBranch?: string;
  /** Git URL revisions are pushed to. Default: derived from `apiUrl` (`https://github.com/OWNER/REPO.git`). */
  gitUrl?: string;
  /** Flotilla's scratch directory (`.flotilla/tmp`): the bare mirror patches are applied in lives there. */
  scratchDir: string;
  /**
   * The local clone worktrees are made in: given, runs start from GitHub's default branch, fetched into it
   * before each run's worktree (`workBase`, issue #30). Absent: no `workBase`.
   */
  repoRoot?: string;
  /** A head without any check or status is green after this long (repositories without CI). Default 120. */
  noChecksGraceSeconds?: number;
  /** How `mergeRevision` merges a pull request. Default `merge`. */
  mergeMethod?: 'merge' | 'squash' | 'rebase';
  /**
   * Whose reply comments answer an agent's questions, by `author_association`. Default OWNER, MEMBER,
   * COLLABORATOR; the engine's own comments always count, other bots never.
   */
  answerAuthorAssociations?: readonly string[];
  /**
   * A review comment or pull request comment mentioning this (by an author `answerAuthorAssociations`
   * allows) sends the item back to an implementor, like a `REQUEST_CHANGES` review. Default `@flotilla`.
   */
  mentionTrigger?: string;
  /**
   * Where credentials come from, never the config file: a GitHub App (`FLOTILLA_GITHUB_APP_ID`,
   * `FLOTILLA_GITHUB_APP_PRIVATE_KEY` or `…_PRIVATE_KEY_FILE`, `FLOTILLA_GITHUB_APP_INSTALLATION_ID`), else a
   * token (`FLOTILLA_GITHUB_TOKEN`, else `GITHUB_TOKEN`). Reviews may go out as a second identity:
   * `FLOTILLA_GITHUB_REVIEWER_TOKEN` or a second App (`FLOTILLA_GITHUB_REVIEWER_APP_*`).
   */
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  /** Client tuning (tests shorten the 5xx retry delays). */
  client?: Pick<
    GitHubClientOptions,
    'quota' | 'serverErrorRetry' | 'rateLimitRetries' | 'circuitBreaker' | 'appTokenRefreshBeforeExpiryMs'
  >;
}

/** The GitHub provider: issues, pull requests, checks and the default branch's specs (issue #12). */
export interface GitHubProvider extends Provider {
  /** The token's rate-limit budget, what the client spent and the circuit breaker, for the dashboard and `doctor`. */
  quota(): GitHubQuotaSnapshot & { circuit: CircuitSnapshot };
  /** How much slower than configured to poll now: the quota manager's factor (1, 2, 4, 8) as the budget drains. */
  pollIntervalFactor(): number;
}

export function createGitHubProvider(options: GitHubProviderOptions): GitHubProvider {
  const { owner, repo } = options;
  const credentials = readGitHubCredentials(options.env);
  const client = createGitHubClient({
    ...credentials,
    apiUrl: options.apiUrl,
    logger: options.logger,
    ...options.client,
  });
  const { octokit, quota, circuit } = client;
  // A second identity for reviews only (GitHub refuses an author's approval of their own pull request).
  const reviewerCredentials = readGitHubReviewerCredentials(options.env);
  const reviewerClient =
    reviewerCredentials === null
      ? null
      : createGitHubClient({
          ...reviewerCredentials,
          apiUrl: options.apiUrl,
          logger: options.logger,
          ...options.client,
        });
  const specReader = createGitHubSpecReader(octokit, {
    owner,
    repo,
    defaultBranch: options.defaultBranch ?? null,
    specsDir: options.specsDir,
  });
  // Work items show their open pull request; revisions check and close work items: one late-bound link.
  let linkedRevisions: () => Promise<Map<string, string>> = async () => new Map();
  const workItems = createGitHubWorkItems(octokit, { owner, repo }, () => linkedRevisions());
  const remote = {
    url: options.gitUrl ?? defaultGitUrl(options.apiUrl, owner, repo),
    token: client.gitToken,
  };
  const revisions = createGitHubRevisions({
    octokit,
    owner,
    repo,
    defaultBranch: specReader.defaultBranch,
    workItems: workItems.reader,
    workItemWriter: workItems.writer,
    remote,
    engineLogin: client.login,
    ...(reviewerClient !== null && {
      reviewer: { octokit: reviewerClient.octokit, login: reviewerClient.login },
    }),
    mirrorDir: join(options.scratchDir, `github-${owner}-${repo}.git`),
    commitAuthor: { name: 'Flotilla', email: 'flotilla@users.noreply.github.com' },
    noChecksGraceMs: (options.noChecksGraceSeconds ?? 120) * 1000,
    ...(options.mergeMethod !== undefined && { mergeMethod: options.mergeMethod }),
  });
  linkedRevisions = revisions.linkedRevisions;
  // The merge queue (issue #30 §5): the branch update or GitHub's own queue, and git's view in a mirror.
  const mergeQueue = createGitHubMergeQueue({
    octokit,
    owner,
    repo,
    defaultBranch: specReader.defaultBranch,
    inspector: createMergeInspector(remote, join(options.scratchDir, `github-${owner}-${repo}-queue.git`)),
    getRevision: revisions.reader.getRevision,
  });
  const comments = createGitHubCommentReader({
    octokit,
    repository: { owner, repo },
    engineLogin: client.login,
    answerAuthorAssociations: options.answerAuthorAssociations ?? DEFAULT_ANSWER_AUTHOR_ASSOCIATIONS,
    logger: options.logger,
  });
  // Humans steering from pull requests: reviews, line comments and mentions (issue #26).
  const feedback = createGitHubFeedback({
    octokit,
    owner,
    repo,
    ownLogins: async () =>
      reviewerClient === null ? [await client.login()] : [await client.login(), await reviewerClient.login()],
    answerAuthorAssociations: options.answerAuthorAssociations ?? DEFAULT_ANSWER_AUTHOR_ASSOCIATIONS,
    mentionTrigger: options.mentionTrigger ?? DEFAULT_MENTION_TRIGGER,
    logger: options.logger,
  });
  return {
    workItemReader: { ...workItems.reader, listComments: comments.listComments },
    workItemWriter: workItems.writer,
    revisionReader: { ...revisions.reader, listFeedback: feedback.listFeedback },
    revisionWriter: {
      ...revisions.writer,
      replyToFeedback: feedback.replyToFeedback,
      updateRevisionBranch: mergeQueue.updateRevisionBranch,
      async mergeRevision(id, mergeOptions = {}) {
        await mergeQueue.requireUpToDate(id, mergeOptions);
        return revisions.writer.mergeRevision(id, mergeOptions);
      },
    },
    specReader,
    history: createGitHubHistory({
      octokit,
      owner,
      repo,
      workItems: workItems.reader,
      revisions: revisions.reader,
      reviewerLogin: reviewerClient === null ? client.login : reviewerClient.login,
    }),
    quota: () => ({ ...quota.snapshot(), circuit: circuit.snapshot() }),
    pollIntervalFactor: () => quota.pollIntervalFactor(),
    ...sharedClones(options, { remote, defaultBranch: specReader.defaultBranch, comments }),
  };
}

/** What lets several clones share the work: the items' history from the issues, GitHub's default branch. */
function sharedClones(
  options: GitHubProviderOptions,
  parts: {
    remote: GitRemote;
    defaultBranch(): Promise<string>;
    comments: ReturnType<typeof createGitHubCommentReader>;
  },
): Pick<Provider, 'taskContextMirror' | 'workBase'> {
  return {
    // A second machine or a fresh clone reads each item's history from the issue (issue #28 §1).
    taskContextMirror: {
      readEntries: async (id) =>
        (await parts.comments.listEngineComments(id)).flatMap((comment) => {
          const entry = parseTaskContextComment(comment.body, id);
          return entry === null ? [] : [entry];
        }),
    },
    // Runs start from GitHub's default branch, fetched into the clone before each worktree (issue #30).
    ...(options.repoRoot !== undefined && {
      workBase: createGitHubWorkBase({
        repoRoot: options.repoRoot,
        remote: parts.remote,
        defaultBranch: parts.defaultBranch,
        logger: options.logger,
      }),
    }),
  };
}

/** api.github.com → github.com; a GitHub Enterprise Server API root (`https://HOST/api/v3`) → that host. */
function defaultGitUrl(apiUrl: string | undefined, owner: string, repo: string): string {
  const api = new URL(apiUrl ?? 'https://api.github.com');
  const host = api.hostname === 'api.github.com' ? 'github.com' : api.host;
  return `${api.protocol}//${host}/${owner}/${repo}.git`;
}
