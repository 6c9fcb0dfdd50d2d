import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeGitHubFault } from './answer-fake-github-fault.ts';
import { buildFakeGitHubHuman, type FakeGitHubHuman, HUMAN } from './build-fake-github-human.ts';
import type { FakeAuthorAssociation, FakeUrls, FakeUser } from './build-fake-github-resources.ts';
import { createFakeGitHubGit, type FakeGitHubGit } from './create-fake-github-git.ts';
import {
  createFakeGitHubHttp,
  type FakeGitHubRequest,
  sendFakeGitHubAnswer,
} from './create-fake-github-http.ts';
import { createFakeGitHubStore, type FakeGitHubStore, type FakeRoute } from './create-fake-github-store.ts';
import { buildFakeCheckRoutes, checkRunsFor } from './fake-github-check-routes.ts';
import { buildFakeGitRoutes } from './fake-github-git-routes.ts';
import { buildFakeIssueRoutes } from './fake-github-issue-routes.ts';
import { buildFakeMergeQueueRoutes } from './fake-github-merge-queue.ts';
import { buildFakePullRoutes } from './fake-github-pull-routes.ts';
import { buildFakeReviewRoutes } from './fake-github-review-routes.ts';
import {
  createFakeWebhooks,
  type FakeDelivery,
  type FakeHook,
  type FakeWebhooks,
} from './fake-github-webhooks.ts';

export type { FakeGitHubFault } from './answer-fake-github-fault.ts';
export type { FakeGitHubHuman } from './build-fake-github-human.ts';
export type { FakeGitHubRequest } from './create-fake-github-http.ts';
export { FAILING_CHECK_ANNOTATIONS, FAILING_CHECK_LOG } from './fake-github-check-routes.ts';

export interface FakeGitHubOptions {
  owner?: string;
  repo?: string;
  defaultBranch?: string;
  /** The token the fake accepts; anything else is answered 401 Bad credentials. */
  token: string;
  /** Login of the token's user (the engine's author). Default `flotilla-bot`. */
  login?: string;
  /** Files of the default branch's first commit. */
  baseFiles?: Readonly<Record<string, string>>;
  /** Primary budget per hour. Default 5000. */
  rateLimit?: number;
  /**
   * The repository's CI: `none` (no checks at all), or one `test` check run queued on every commit until
   * `settleChecks()` completes it, passing or failing. Default `none`.
   */
  ci?: 'none' | 'passing' | 'failing';
  /**
   * The CI is fast: a head's check run has completed by the time anyone first reads it (it reports its
   * result in the same poll that shows the new head). Default false (queued until `settleChecks()`).
   */
  ciSettlesAtOnce?: boolean;
  /** The first this many heads the CI runs on fail, whatever `ci` says; later ones follow `ci`. Default 0. */
  failingHeads?: number;
  /** Branch protection on the default branch: approving reviews a merge needs. Default 0 (unprotected). */
  requiredApprovingReviews?: number;
  /**
   * A ruleset requires GitHub's merge queue on the default branch (fake-github-merge-queue.ts): the branch's
   * rules include `merge_queue`, `enqueuePullRequest` queues, direct merges are refused. Default false.
   */
  mergeQueue?: boolean;
  /**
   * More accounts with their own tokens (e.g. a second identity that posts reviews). Each is a separate user
   * to GitHub's rules: it may approve a pull request the main token opened.
   */
  extraUsers?: { token: string; login: string; association?: FakeAuthorAssociation }[];
  /**
   * Native issue dependencies ("blocked by"): GitHub.com has them; `false` is a server without them
   * (the endpoints answer 404 and issues carry no `issue_dependencies_summary`). Default true.
   */
  issueDependencies?: boolean;
  /**
   * A GitHub App installed on the repository: `POST /app/installations/{id}/access_tokens` and `GET /app`
   * take a JWT signed with the App's key (RS256, verified with `publicKey`), and the installation tokens
   * made there are accepted until they expire (`tokenLifetimeSeconds`, GitHub's is 3600).
   */
  app?: {
    id: number;
    slug: string;
    installationId: number;
    publicKey: string;
    tokenLifetimeSeconds?: number | undefined;
  };
}

export interface FakeGitHub {
  /** The REST API root to give the client as `apiUrl`. */
  apiUrl: string;
  owner: string;
  repo: string;
  login: string;
  /** Where git pushes go (the bare repository behind the API). */
  gitUrl: string;
  git: FakeGitHubGit;
  requests: FakeGitHubRequest[];
  /** `times` requests (default 1) matching `method`/`path` (default: any) get the fault. */
  injectFault(fault: FakeGitHubFault, match?: { times?: number; method?: string; path?: RegExp }): void;
  /**
   * Runs `action` just before the fake handles the next request matching `method`/`path` — what a human
   * does on github.com between two of Flotilla's requests (a race, deterministically).
   */
  interleave(match: { method?: string; path?: RegExp }, action: () => void | Promise<void>): void;
  /** Installation tokens the fake made (App authentication), oldest first. */
  installationTokens: { token: string; expiresAt: number }[];
  /** Branch protection: the approving reviews a merge into the default branch needs (0: none). */
  setRequiredApprovingReviews(count: number): void;
  /** Sets the primary budget's remaining points and the seconds until it resets. */
  setRateLimit(state: { remaining: number; resetInSeconds: number }): void;
  /** What a human does on github.com (no request is recorded). */
  human: FakeGitHubHuman;
  issueComments(issueNumber: number): string[];
  /**
   * Repository webhooks (`POST /repos/{owner}/{repo}/hooks`, or `addHook`): after every change the fake
   * POSTs a signed delivery to each hook, as GitHub does (fake-github-webhooks.ts, docs/github-webhooks.md).
   */
  webhooks: {
    hooks: FakeHook[];
    deliveries: FakeDelivery[];
    addHook(fields: { url: string; secret: string; events: string[] }): FakeHook;
    /** Sends a delivery again, same `X-GitHub-Delivery`; resolves with the receiver's status. */
    redeliver(deliveryID: string): Promise<number>;
    /** Resolves once every delivery queued so far was answered. */
    settled(): Promise<void>;
  };
  /**
   * CI finishes: the check run queued on every open pull request's head completes (see `ci`), and on every
   * merge group of GitHub's merge queue unless `mergeGroups` is false (a test holds the queue's merges).
   */
  settleChecks(options?: { mergeGroups?: boolean }): Promise<void>;
  /** The pull requests in GitHub's merge queue (`mergeQueue` on), first to merge first. */
  mergeQueue(): number[];
  close(): Promise<void>;
}

/** Who sends the CI's check runs (GitHub Actions' bot). */
const CI_APP_USER: FakeUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };

/**
 * A GitHub REST API on 127.0.0.1 for tests and demos: issues, labels, comments, and the git data of a real
 * bare repository (refs, trees, blobs). Like api.github.com it sends weak ETags and answers a matching
 * `If-None-Match` with 304 (not counted against the budget), paginates with `Link` headers, reports the
 * budget in `x-ratelimit-*` headers and answers 403 once it is spent, and rejects a wrong token with 401.
 * Faults (a secondary limit with `retry-after`, 5xx, 401) are injected per request.
 */
export async function createFakeGitHub(options: FakeGitHubOptions): Promise<FakeGitHub> {
  const owner = options.owner ?? 'acme';
  const repo = options.repo ?? 'widgets';
  const defaultBranch = options.defaultBranch ?? 'main';
  const bot = botOf(options);
  const git = await createFakeGitHubGit(defaultBranch);
  await git.commitFiles(defaultBranch, options.baseFiles ?? { 'README.md': '# Fake\n' }, 'Initial commit');
  let urls: FakeUrls = { api: '', fullName: `${owner}/${repo}` };
  const store = createFakeGitHubStore({
    ...repositoryRules(options),
    ...{ owner, repo, defaultBranch, git, bot },
    urls: () => urls,
  });
  const webhooks = createFakeWebhooks(store);
  const tellPull = async (number: number, action: string) => {
    // Reading the head costs a git process: only when a hook will receive it.
    if (webhooks.hooks.length === 0) return;
    webhooks.emit(
      'pull_request',
      action,
      { number, pull_request: await webhooks.pullPayload(number) },
      HUMAN,
    );
  };
  /** Open pull requests' heads as the webhooks last told them (a new one: `synchronize`). */
  const toldHeads = new Map<number, string>();
  const http = createFakeGitHubHttp({
    token: options.token,
    app: options.app,
    rateLimit: options.rateLimit ?? 5000,
    bot,
    extraUsers: options.extraUsers ?? [],
    store,
    routes: buildRoutes(store, webhooks),
    webhooks,
    urls: () => urls,
  });
  const server = createServer((request, response) => {
    http.handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendFakeGitHubAnswer(response, 500, { message: String(error) });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  urls = { ...urls, api: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };

  return {
    apiUrl: urls.api,
    owner,
    repo,
    login: bot.login,
    gitUrl: git.path,
    git,
    requests: http.requests,
    installationTokens: http.installationTokens,
    injectFault: (fault, match = {}) => http.injectFault(fault, match),
    interleave: http.interleave,
    setRequiredApprovingReviews(count) {
      store.requiredApprovingReviews = count;
    },
    setRateLimit: http.setRateLimit,
    human: buildFakeGitHubHuman({ store, git, webhooks, toldHeads, tellPull }),
    settleChecks: (settle = {}) => settleFakeChecks(store, webhooks, toldHeads, tellPull, settle),
    mergeQueue: () => [...store.queue],
    webhooks: publicWebhooks(webhooks),
    issueComments: (issueNumber) =>
      store.requireIssue(String(issueNumber)).comments.map((comment) => comment.body),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await git.remove();
    },
  };
}

/** The token's user: `flotilla-bot`, or with an App the App's bot account (its installation tokens write as it). */
function botOf(options: FakeGitHubOptions): FakeUser {
  return {
    login: options.login ?? (options.app === undefined ? 'flotilla-bot' : `${options.app.slug}[bot]`),
    id: 2,
    // An App's installation token writes as the App's bot account.
    ...(options.app !== undefined && { type: 'Bot' as const }),
  };
}

/** The repository's CI, branch protection, merge queue and issue dependencies, with their defaults. */
function repositoryRules(options: FakeGitHubOptions) {
  return {
    ci: options.ci ?? 'none',
    settleAtOnce: options.ciSettlesAtOnce ?? false,
    failingHeads: options.failingHeads ?? 0,
    requiredApprovingReviews: options.requiredApprovingReviews ?? 0,
    mergeQueue: options.mergeQueue ?? false,
    issueDependencies: options.issueDependencies ?? true,
  };
}

/** What the tests may use of the webhooks: the hooks, the deliveries, adding, redelivering, settling. */
function publicWebhooks(webhooks: FakeWebhooks): FakeGitHub['webhooks'] {
  const { hooks, deliveries, addHook, redeliver, settled } = webhooks;
  return { hooks, deliveries, addHook, redeliver, settled };
}

/** Every resource's routes. */
function buildRoutes(store: FakeGitHubStore, webhooks: FakeWebhooks): FakeRoute[] {
  return [
    ...webhooks.routes,
    ...buildFakeIssueRoutes(store),
    ...buildFakeMergeQueueRoutes(store),
    ...buildFakePullRoutes(store),
    ...buildFakeReviewRoutes(store),
    ...buildFakeCheckRoutes(store),
    ...buildFakeGitRoutes(store),
  ];
}

/**
 * CI finishes: the check run queued on every open pull request's head completes, the merge groups' too
 * (fake-github-merge-queue.ts). A head pushed with git, not the API, gets its `synchronize` first.
 */
async function settleFakeChecks(
  store: FakeGitHubStore,
  webhooks: FakeWebhooks,
  toldHeads: Map<number, string>,
  tellPull: (number: number, action: string) => Promise<void>,
  settle: { mergeGroups?: boolean },
): Promise<void> {
  const { issues, settledChecks } = store;
  // The merge groups' runs too (fake-github-merge-queue.ts), unless a test holds the queue's merges.
  for (const number of settle.mergeGroups === false ? [] : store.queue) {
    const group = issues.get(number)?.pull?.queueEntry?.group;
    if (group != null) settledChecks.add(group.sha);
  }
  for (const issue of issues.values()) {
    if (issue.pull === null || issue.state !== 'open') continue;
    const head = await store.headSHA(issue.pull);
    // A push to the branch (git, not the API): GitHub sends `synchronize` for the new head.
    const told = toldHeads.get(issue.number);
    toldHeads.set(issue.number, head);
    if (told !== undefined && told !== head) await tellPull(issue.number, 'synchronize');
    const newlySettled = !settledChecks.has(head);
    settledChecks.add(head);
    // The CI's run completed: `check_run` `completed` (only with hooks: reading the run registers the head).
    if (newlySettled && store.ci !== 'none' && webhooks.hooks.length > 0) {
      const run = checkRunsFor(store, head)[0];
      webhooks.emit('check_run', 'completed', { check_run: { ...run, head_sha: head } }, CI_APP_USER);
    }
  }
}
