import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerApp } from './answer-fake-github-app.ts';
import { answerFault, type FakeGitHubFault } from './answer-fake-github-fault.ts';
import {
  type FakeAuthorAssociation,
  type FakeUrls,
  type FakeUser,
  githubTimestamp,
} from './build-fake-github-resources.ts';
import { createFakeGitHubGit, type FakeGitHubGit } from './create-fake-github-git.ts';
import {
  createFakeGitHubStore,
  DOCS,
  type FakeAnswer,
  type FakeCaller,
  type FakeRoute,
  HttpError,
} from './create-fake-github-store.ts';
import { buildFakeCheckRoutes, checkRunsFor } from './fake-github-check-routes.ts';
import { buildFakeGitRoutes } from './fake-github-git-routes.ts';
import { buildFakeIssueRoutes } from './fake-github-issue-routes.ts';
import { advanceFakeMergeQueue, buildFakeMergeQueueRoutes } from './fake-github-merge-queue.ts';
import { buildFakePullRoutes } from './fake-github-pull-routes.ts';
import { buildFakeReviewRoutes } from './fake-github-review-routes.ts';
import { createFakeWebhooks, type FakeDelivery, type FakeHook } from './fake-github-webhooks.ts';

export type { FakeGitHubFault } from './answer-fake-github-fault.ts';
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

/** One HTTP exchange as the fake saw it. */
export interface FakeGitHubRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
  status: number;
  /** Whether it counted against a rate limit (304s and injected faults do not). */
  counted: boolean;
  /** The budget it counted against: `core` (REST) or `graphql` (a separate one on GitHub). */
  resource: 'core' | 'graphql';
  /** When it arrived (ms since the epoch). */
  at: number;
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
  human: {
    closeIssue(issueNumber: number): void;
    setIssueLabels(issueNumber: number, labels: string[]): void;
    issueLabels(issueNumber: number): string[];
    /** Sets an issue's native "blocked by" dependencies (issue numbers). */
    setBlockedBy(issueNumber: number, blockers: number[]): void;
    closePullRequest(pullNumber: number): void;
    /** Replaces the branch's history with one new commit on the default branch (a `git push --force`). */
    forcePush(branch: string, files: Readonly<Record<string, string>>): Promise<string>;
    createIssue(fields: { title: string; body?: string; labels?: string[] }): number;
    commitFiles(files: Readonly<Record<string, string>>, message?: string): Promise<string>;
    /** Commits the files on a new branch from the default branch and opens a pull request for it. */
    openPullRequest(fields: {
      branch: string;
      files: Readonly<Record<string, string>>;
      title: string;
      body?: string;
      draft?: boolean;
    }): Promise<number>;
    /** A human marks a pull request as a draft ("Convert to draft") or ready for review. */
    setDraft(pullNumber: number, draft: boolean): void;
    /**
     * Someone comments on an issue on github.com: by default the repository's owner (`octocat`, `OWNER`);
     * `association` is the author's `author_association` (`NONE`: a drive-by user on a public repository),
     * `bot` makes the author a bot account (`type: Bot`), `at` backdates it (ms since the epoch). Returns
     * the comment's id.
     */
    comment(
      issueNumber: number,
      body: string,
      fields?: { login?: string; association?: FakeAuthorAssociation; bot?: boolean; at?: number },
    ): number;
  };
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

const HUMAN: FakeUser = { login: 'octocat', id: 1 };
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
  const bot: FakeUser = {
    login: options.login ?? (options.app === undefined ? 'flotilla-bot' : `${options.app.slug}[bot]`),
    id: 2,
    // An App's installation token writes as the App's bot account.
    ...(options.app !== undefined && { type: 'Bot' as const }),
  };
  const installationTokens: { token: string; expiresAt: number }[] = [];
  const limit = options.rateLimit ?? 5000;
  const git = await createFakeGitHubGit(defaultBranch);
  await git.commitFiles(defaultBranch, options.baseFiles ?? { 'README.md': '# Fake\n' }, 'Initial commit');

  const faults: {
    fault: FakeGitHubFault;
    times: number;
    method?: string | undefined;
    path?: RegExp | undefined;
  }[] = [];
  const interleaved: { method?: string; path?: RegExp; action: () => void | Promise<void> }[] = [];
  const requests: FakeGitHubRequest[] = [];
  let remaining = limit;
  let graphqlRemaining = limit;
  let resetAt = Math.floor(Date.now() / 1000) + 3600;
  let urls: FakeUrls = { api: '', fullName: `${owner}/${repo}` };
  const store = createFakeGitHubStore({
    owner,
    repo,
    defaultBranch,
    git,
    bot,
    ci: options.ci ?? 'none',
    settleAtOnce: options.ciSettlesAtOnce ?? false,
    failingHeads: options.failingHeads ?? 0,
    requiredApprovingReviews: options.requiredApprovingReviews ?? 0,
    mergeQueue: options.mergeQueue ?? false,
    issueDependencies: options.issueDependencies ?? true,
    urls: () => urls,
  });
  const { issues, requireIssue, requirePull, setState, createIssue, headSHA, settledChecks } = store;
  const nextID = store.nextID;
  // Other accounts' tokens (a second identity for reviews): each is its own user.
  const extraUsers = (options.extraUsers ?? []).map((extra, index) => ({
    token: extra.token,
    user: { login: extra.login, id: 10 + index } satisfies FakeUser,
    association: extra.association,
  }));

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
  const routes: FakeRoute[] = [
    ...webhooks.routes,
    ...buildFakeIssueRoutes(store),
    ...buildFakeMergeQueueRoutes(store),
    ...buildFakePullRoutes(store),
    ...buildFakeReviewRoutes(store),
    ...buildFakeCheckRoutes(store),
    ...buildFakeGitRoutes(store),
  ];

  function rateHeaders(): Record<string, string> {
    if (Date.now() / 1000 >= resetAt) {
      remaining = limit;
      resetAt = Math.floor(Date.now() / 1000) + 3600;
    }
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(resetAt),
      'x-ratelimit-used': String(limit - remaining),
      'x-ratelimit-resource': 'core',
    };
  }

  function send(
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    const text = body === undefined ? '' : JSON.stringify(body);
    response.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'private, max-age=60, s-maxage=60',
      vary: 'Accept, Authorization, Cookie, X-GitHub-OTP',
      'x-github-media-type': 'github.v3; format=json',
      'x-github-request-id': createHash('sha1').update(String(Math.random())).digest('hex').slice(0, 16),
      'x-oauth-scopes': 'repo',
      'x-accepted-oauth-scopes': 'repo',
      ...(text === '' ? {} : { 'content-length': String(Buffer.byteLength(text)) }),
      ...headers,
    });
    response.end(text);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', urls.api);
    const record: FakeGitHubRequest = {
      method,
      path: `${url.pathname}${url.search}`,
      status: 0,
      counted: false,
      resource: url.pathname === '/graphql' ? 'graphql' : 'core',
      at: Date.now(),
    };
    requests.push(record);
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      send(response, status, body, headers);
    };
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);

    const faultIndex = faults.findIndex(
      (entry) =>
        (entry.method === undefined || entry.method === method) &&
        (entry.path === undefined || entry.path.test(record.path)),
    );
    const interleavedIndex = interleaved.findIndex(
      (entry) =>
        (entry.method === undefined || entry.method === method) &&
        (entry.path === undefined || entry.path.test(record.path)),
    );
    const interleavedAction = interleaved[interleavedIndex];
    if (interleavedAction !== undefined) {
      interleaved.splice(interleavedIndex, 1);
      await interleavedAction.action();
    }
    const fault = faults[faultIndex];
    if (fault !== undefined) {
      if (--fault.times <= 0) faults.splice(faultIndex, 1);
      const injected = answerFault(fault.fault);
      return reply(injected.status, injected.body, { ...rateHeaders(), ...injected.headers });
    }

    const authorization = (request.headers.authorization ?? '').replace(/^(token|bearer)\s+/i, '');
    if (options.app !== undefined && /^\/app(\/|$)/.test(url.pathname)) {
      const answer = answerApp(options.app, method, url.pathname, authorization);
      if (answer.status === 201) {
        const body = answer.body as { token: string; expires_at: string };
        installationTokens.push({ token: body.token, expiresAt: Date.parse(body.expires_at) });
      }
      record.counted = answer.status < 300;
      return reply(answer.status, answer.body, rateHeaders());
    }
    const installation = installationTokens.find((entry) => entry.token === authorization);
    const extra = extraUsers.find((entry) => entry.token === authorization);
    let caller: FakeCaller | null = null;
    if (authorization === options.token) caller = { user: bot, viaApp: options.app !== undefined };
    else if (installation !== undefined && installation.expiresAt > Date.now())
      caller = { user: bot, viaApp: true };
    else if (extra !== undefined)
      caller = {
        user: extra.user,
        viaApp: false,
        ...(extra.association !== undefined && { association: extra.association }),
      };
    if (caller === null) {
      return reply(401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' });
    }
    if (installation !== undefined && url.pathname === '/user') {
      return reply(403, {
        message: 'Resource not accessible by integration',
        documentation_url: `${DOCS}/users/users#get-the-authenticated-user`,
        status: '403',
      });
    }
    if (remaining <= 0 && Date.now() / 1000 < resetAt) {
      return reply(
        403,
        {
          message: `API rate limit exceeded for user ID ${bot.id}. If you reach out to GitHub Support for help, please include the request ID.`,
          documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-the-primary-rate-limit`,
          status: '403',
        },
        rateHeaders(),
      );
    }

    // GitHub's merge queue works in the background: whatever it did by now shows in this answer.
    await advanceFakeMergeQueue(store);
    const found = routes
      .filter((candidate) => candidate.method === method)
      .map((candidate) => ({ candidate, match: candidate.pattern.exec(decodeURIComponent(url.pathname)) }))
      .find(({ match }) => match !== null);
    let answer: FakeAnswer;
    try {
      if (found?.match == null) throw new HttpError(404, 'Not Found');
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text === '' ? {} : JSON.parse(text);
      answer = await found.candidate.handle(
        found.match.slice(1).map((part) => part ?? ''),
        url.searchParams,
        typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {},
        caller,
      );
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      const fields = error instanceof HttpError ? error.extra : {};
      answer = {
        status,
        body: { message, documentation_url: DOCS, ...fields, status: String(status) },
      };
    }

    const etag = `W/"${createHash('sha256').update(JSON.stringify(answer.body)).digest('hex').slice(0, 32)}"`;
    if (method === 'GET' && answer.status === 200 && request.headers['if-none-match'] === etag) {
      // Not counted: "making a conditional request … does not count against your primary rate limit".
      return reply(304, undefined, { etag, ...rateHeaders() });
    }
    record.counted = true;
    if (record.resource === 'graphql') {
      graphqlRemaining = Math.max(graphqlRemaining - 1, 0);
      return reply(answer.status, answer.body, {
        ...rateHeaders(),
        'x-ratelimit-remaining': String(graphqlRemaining),
        'x-ratelimit-used': String(limit - graphqlRemaining),
        'x-ratelimit-resource': 'graphql',
      });
    }
    remaining = Math.max(remaining - 1, 0);
    reply(answer.status, answer.body, {
      ...rateHeaders(),
      ...(answer.status < 300 ? { etag } : {}),
      ...(answer.link === undefined ? {} : { link: answer.link }),
      ...answer.headers,
    });
    if (method !== 'GET' && answer.status < 300) webhooks.afterWrite(method, url.pathname, caller.user);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, { message: String(error) });
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
    requests,
    installationTokens,
    injectFault(fault, match = {}) {
      faults.push({ fault, times: match.times ?? 1, method: match.method, path: match.path });
    },
    interleave(match, action) {
      interleaved.push({ ...match, action });
    },
    setRequiredApprovingReviews(count) {
      store.requiredApprovingReviews = count;
    },
    setRateLimit(state) {
      remaining = state.remaining;
      // GitHub's reset is a whole epoch second; rounding up keeps at least `resetInSeconds` to wait (rounding
      // down could leave a millisecond, and a test of the wait would find no limit at all).
      resetAt = Math.ceil(Date.now() / 1000 + state.resetInSeconds);
    },
    human: {
      closeIssue(issueNumber) {
        const issue = requireIssue(String(issueNumber));
        setState(issue, 'closed', HUMAN);
        webhooks.emit('issues', 'closed', { issue: store.issueJSON(issue, false) }, HUMAN);
      },
      setIssueLabels(issueNumber, names) {
        const issue = requireIssue(String(issueNumber));
        issue.labels = [...new Set(names)];
        webhooks.emit('issues', 'labeled', { issue: store.issueJSON(issue, false) }, HUMAN);
      },
      issueLabels: (issueNumber) => [...requireIssue(String(issueNumber)).labels],
      setBlockedBy(issueNumber, blockers) {
        requireIssue(String(issueNumber)).blockedBy = [...blockers];
      },
      setDraft(pullNumber, draft) {
        requirePull(String(pullNumber)).pull.draft = draft;
        void tellPull(pullNumber, draft ? 'converted_to_draft' : 'ready_for_review');
      },
      comment(issueNumber, body, fields = {}) {
        const issue = requireIssue(String(issueNumber));
        const user: FakeUser =
          fields.login === undefined
            ? HUMAN
            : { login: fields.login, id: nextID(), ...(fields.bot === true && { type: 'Bot' as const }) };
        const createdAt = githubTimestamp(fields.at ?? Date.now());
        const comment = {
          id: nextID(),
          body,
          user,
          authorAssociation: fields.association ?? 'OWNER',
          createdAt,
        };
        // Comments are listed in the order they were made (a backdated one goes before later ones).
        issue.comments.push(comment);
        issue.comments.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
        issue.updatedAt = githubTimestamp(Date.now());
        webhooks.emit(
          'issue_comment',
          'created',
          {
            issue: {
              number: issue.number,
              ...(issue.pull !== null && { pull_request: { number: issue.number } }),
            },
            comment: { id: comment.id, body },
          },
          user,
        );
        return comment.id;
      },
      closePullRequest(pullNumber) {
        setState(requirePull(String(pullNumber)), 'closed', HUMAN);
        void tellPull(pullNumber, 'closed');
      },
      async forcePush(branch, files) {
        const base = await git.resolveCommit(`refs/heads/${defaultBranch}`);
        await git.deleteBranch(branch);
        const sha = await git.commitFiles(branch, files, 'Rewritten by hand', base ?? undefined);
        for (const issue of issues.values()) {
          if (issue.pull?.headRef === branch && issue.state === 'open') {
            toldHeads.set(issue.number, sha);
            await tellPull(issue.number, 'synchronize');
          }
        }
        return sha;
      },
      createIssue: (fields) => {
        const issue = createIssue(fields, HUMAN);
        webhooks.emit('issues', 'opened', { issue: store.issueJSON(issue, false) }, HUMAN);
        return issue.number;
      },
      commitFiles: (files, message = 'Update files') => git.commitFiles(defaultBranch, files, message),
      async openPullRequest(fields) {
        const base = await git.resolveCommit(`refs/heads/${defaultBranch}`);
        await git.commitFiles(fields.branch, fields.files, fields.title, base ?? undefined);
        const issue = createIssue({ title: fields.title, body: fields.body ?? null }, HUMAN);
        issue.pull = {
          headRef: fields.branch,
          baseRef: defaultBranch,
          draft: fields.draft ?? false,
          mergedAt: null,
          reviews: [],
          reviewComments: [],
        };
        await tellPull(issue.number, 'opened');
        return issue.number;
      },
    },
    mergeQueue: () => [...store.queue],
    async settleChecks(settle = {}) {
      // The merge groups' runs too (fake-github-merge-queue.ts).
      for (const number of settle.mergeGroups === false ? [] : store.queue) {
        const group = issues.get(number)?.pull?.queueEntry?.group;
        if (group != null) settledChecks.add(group.sha);
      }
      for (const issue of issues.values()) {
        if (issue.pull === null || issue.state !== 'open') continue;
        const head = await headSHA(issue.pull);
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
    },
    webhooks: {
      hooks: webhooks.hooks,
      deliveries: webhooks.deliveries,
      addHook: webhooks.addHook,
      redeliver: webhooks.redeliver,
      settled: webhooks.settled,
    },
    issueComments: (issueNumber) => requireIssue(String(issueNumber)).comments.map((comment) => comment.body),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await git.remove();
    },
  };
}
