import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerApp, type FakeGitHubApp } from './answer-fake-github-app.ts';
import { answerFault, type FakeGitHubFault } from './answer-fake-github-fault.ts';
import type { FakeAuthorAssociation, FakeUrls, FakeUser } from './build-fake-github-resources.ts';
import {
  DOCS,
  type FakeAnswer,
  type FakeCaller,
  type FakeGitHubStore,
  type FakeRoute,
  HttpError,
} from './create-fake-github-store.ts';
import { advanceFakeMergeQueue } from './fake-github-merge-queue.ts';
import type { FakeWebhooks } from './fake-github-webhooks.ts';

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

/** Which requests a fault or an interleaved action applies to (absent: any). */
interface RequestMatch {
  method?: string | undefined;
  path?: RegExp | undefined;
}

interface FakeGitHubHttpOptions {
  /** The token the fake accepts. */
  token: string;
  app: FakeGitHubApp | undefined;
  /** Primary budget per hour (GraphQL has one as large). */
  rateLimit: number;
  /** The token's user. */
  bot: FakeUser;
  extraUsers: readonly { token: string; login: string; association?: FakeAuthorAssociation }[];
  store: FakeGitHubStore;
  routes: readonly FakeRoute[];
  webhooks: FakeWebhooks;
  urls(): FakeUrls;
}

type Reply = (status: number, body: unknown, headers?: Record<string, string>) => void;

/**
 * The fake's HTTP side: every request recorded, injected faults and interleaved actions, GitHub App and token
 * authentication, the primary and GraphQL budgets, routing, weak ETags (a matching `If-None-Match` is a 304,
 * not counted), and the webhooks a successful REST write sends.
 */
export function createFakeGitHubHttp(options: FakeGitHubHttpOptions) {
  const { bot, store, webhooks } = options;
  const limit = options.rateLimit;
  const faults: ({ fault: FakeGitHubFault; times: number } & RequestMatch)[] = [];
  const interleaved: ({ action: () => void | Promise<void> } & RequestMatch)[] = [];
  const requests: FakeGitHubRequest[] = [];
  const installationTokens: { token: string; expiresAt: number }[] = [];
  let remaining = limit;
  let graphqlRemaining = limit;
  let resetAt = Math.floor(Date.now() / 1000) + 3600;
  // Other accounts' tokens (a second identity for reviews): each is its own user.
  const extraUsers = options.extraUsers.map((extra, index) => ({
    token: extra.token,
    user: { login: extra.login, id: 10 + index } satisfies FakeUser,
    association: extra.association,
  }));

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

  /** Runs the action interleaved before this request, then answers an injected fault; true if it did. */
  async function injectBeforeHandling(method: string, path: string, reply: Reply): Promise<boolean> {
    const matches = (entry: RequestMatch) =>
      (entry.method === undefined || entry.method === method) &&
      (entry.path === undefined || entry.path.test(path));
    // Looked up before the action runs: a fault the action injects waits for the next request.
    const faultIndex = faults.findIndex(matches);
    const interleavedIndex = interleaved.findIndex(matches);
    const interleavedAction = interleaved[interleavedIndex];
    if (interleavedAction !== undefined) {
      interleaved.splice(interleavedIndex, 1);
      await interleavedAction.action();
    }
    const fault = faults[faultIndex];
    if (fault === undefined) return false;
    if (--fault.times <= 0) faults.splice(faultIndex, 1);
    const injected = answerFault(fault.fault);
    reply(injected.status, injected.body, { ...rateHeaders(), ...injected.headers });
    return true;
  }

  /** The App's endpoints (`/app…`), which take a JWT; an installation token made there is accepted after. */
  function answerAppRequest(
    app: FakeGitHubApp,
    pathname: string,
    jwt: string,
    record: FakeGitHubRequest,
    reply: Reply,
  ) {
    const answer = answerApp(app, record.method, pathname, jwt);
    if (answer.status === 201) {
      const body = answer.body as { token: string; expires_at: string };
      installationTokens.push({ token: body.token, expiresAt: Date.parse(body.expires_at) });
    }
    record.counted = answer.status < 300;
    reply(answer.status, answer.body, rateHeaders());
  }

  /** Who the token is, or null once refused (401 Bad credentials; an installation token on `/user`: 403). */
  function authenticate(authorization: string, pathname: string, reply: Reply): FakeCaller | null {
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
      reply(401, { message: 'Bad credentials', documentation_url: DOCS, status: '401' });
      return null;
    }
    if (installation !== undefined && pathname === '/user') {
      reply(403, {
        message: 'Resource not accessible by integration',
        documentation_url: `${DOCS}/users/users#get-the-authenticated-user`,
        status: '403',
      });
      return null;
    }
    return caller;
  }

  /** Answers 403 when the primary budget is spent (until it resets); true if it did. */
  function refuseSpentBudget(reply: Reply): boolean {
    if (remaining > 0 || Date.now() / 1000 >= resetAt) return false;
    reply(
      403,
      {
        message: `API rate limit exceeded for user ID ${bot.id}. If you reach out to GitHub Support for help, please include the request ID.`,
        documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-the-primary-rate-limit`,
        status: '403',
      },
      rateHeaders(),
    );
    return true;
  }

  /** The route's answer, or GitHub's error shape (404 for no route, 500 for what the fake did not expect). */
  async function answerRoute(
    method: string,
    url: URL,
    text: string,
    caller: FakeCaller,
  ): Promise<FakeAnswer> {
    // GitHub's merge queue works in the background: whatever it did by now shows in this answer.
    await advanceFakeMergeQueue(store);
    const found = options.routes
      .filter((candidate) => candidate.method === method)
      .map((candidate) => ({ candidate, match: candidate.pattern.exec(decodeURIComponent(url.pathname)) }))
      .find(({ match }) => match !== null);
    try {
      if (found?.match == null) throw new HttpError(404, 'Not Found');
      const body: unknown = text === '' ? {} : JSON.parse(text);
      return await found.candidate.handle(
        found.match.slice(1).map((part) => part ?? ''),
        url.searchParams,
        typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {},
        caller,
      );
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      const message = error instanceof Error ? error.message : String(error);
      const fields = error instanceof HttpError ? error.extra : {};
      return { status, body: { message, documentation_url: DOCS, ...fields, status: String(status) } };
    }
  }

  /** Sends the answer with its ETag (or 304 for a matching `If-None-Match`), counted against its budget. */
  function replyAnswer(
    answer: FakeAnswer,
    ifNoneMatch: string | undefined,
    record: FakeGitHubRequest,
    reply: Reply,
  ) {
    const etag = `W/"${createHash('sha256').update(JSON.stringify(answer.body)).digest('hex').slice(0, 32)}"`;
    if (record.method === 'GET' && answer.status === 200 && ifNoneMatch === etag) {
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
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', options.urls().api);
    const record: FakeGitHubRequest = {
      method,
      path: `${url.pathname}${url.search}`,
      status: 0,
      counted: false,
      resource: url.pathname === '/graphql' ? 'graphql' : 'core',
      at: Date.now(),
    };
    requests.push(record);
    const reply: Reply = (status, body, headers = {}) => {
      record.status = status;
      sendFakeGitHubAnswer(response, status, body, headers);
    };
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (await injectBeforeHandling(method, record.path, reply)) return;
    const authorization = (request.headers.authorization ?? '').replace(/^(token|bearer)\s+/i, '');
    if (options.app !== undefined && /^\/app(\/|$)/.test(url.pathname)) {
      return answerAppRequest(options.app, url.pathname, authorization, record, reply);
    }
    const caller = authenticate(authorization, url.pathname, reply);
    if (caller === null || refuseSpentBudget(reply)) return;
    const answer = await answerRoute(method, url, Buffer.concat(chunks).toString('utf8'), caller);
    replyAnswer(answer, request.headers['if-none-match'], record, reply);
    const restWrite = record.resource === 'core' && method !== 'GET' && answer.status < 300;
    if (restWrite) webhooks.afterWrite(method, url.pathname, caller.user);
  }

  return {
    handle,
    requests,
    installationTokens,
    injectFault(fault: FakeGitHubFault, match: { times?: number } & RequestMatch) {
      faults.push({ fault, times: match.times ?? 1, method: match.method, path: match.path });
    },
    interleave(match: RequestMatch, action: () => void | Promise<void>) {
      interleaved.push({ ...match, action });
    },
    setRateLimit(state: { remaining: number; resetInSeconds: number }) {
      remaining = state.remaining;
      // GitHub's reset is a whole epoch second; rounding up keeps at least `resetInSeconds` to wait (rounding
      // down could leave a millisecond, and a test of the wait would find no limit at all).
      resetAt = Math.ceil(Date.now() / 1000 + state.resetInSeconds);
    },
  };
}

/** Writes one answer with the headers api.github.com sends on every response. */
export function sendFakeGitHubAnswer(
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
