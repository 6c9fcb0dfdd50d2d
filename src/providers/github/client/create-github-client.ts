import { createAppAuth } from '@octokit/auth-app';
import { retry } from '@octokit/plugin-retry';
import { type ThrottlingOptions, throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import type { Logger } from '../../../logging/logger.ts';
import {
  type CircuitBreaker,
  type CircuitBreakerOptions,
  createCircuitBreaker,
  GitHubUnavailableError,
} from './create-circuit-breaker.ts';
import { createGitHubQuota, type GitHubQuota, type GitHubQuotaOptions } from './create-github-quota.ts';
import { createInstallationTokenCache } from './create-installation-token-cache.ts';
import { GitHubCredentialsRejectedError } from './github-credentials-rejected-error.ts';
import { GitHubUnreachableError } from './github-unreachable-error.ts';
import { installConditionalRequestCache } from './install-conditional-request-cache.ts';
import { GITHUB_APP_VARIABLES, type GitHubAppCredentials } from './read-github-credentials.ts';
import type { GitHubToken } from './read-github-token.ts';

/** How Octokit's request log names a request answered 304 Not Modified (`GET /path - 304 with id … in 12ms`). */
const NOT_MODIFIED_REQUEST = / - 304 with id /;

const GitHubOctokit = Octokit.plugin(throttling, retry);
export type GitHubOctokit = InstanceType<typeof GitHubOctokit>;

type BottleneckGroup = NonNullable<ThrottlingOptions['write']>;
/** A plugin-throttling queue that lets every job through at once (the options take a Bottleneck group). */
const UNTHROTTLED_GROUP = {
  key: () => ({ schedule: (_options: unknown, job: () => Promise<unknown>) => job() }),
} as unknown as BottleneckGroup; // only `key(id).schedule(options, job)` is used by the plugin

export interface GitHubClientOptions {
  /** A token, or a GitHub App installation (exactly one; see readGitHubCredentials). */
  token?: GitHubToken;
  app?: GitHubAppCredentials;
  /** An installation token is replaced this long before the expiry GitHub gave it. Default 5 minutes. */
  appTokenRefreshBeforeExpiryMs?: number;
  /** Default: https://api.github.com. */
  apiUrl?: string | undefined;
  logger: Logger;
  quota?: GitHubQuotaOptions;
  /** Retries of 5xx answers (plugin-retry): the n-th waits n² × this. Default: 1000 ms, 3 retries. */
  serverErrorRetry?: { baseDelayMs?: number | undefined; retries?: number | undefined };
  /** Retries after a secondary limit or an exhausted budget, each after the wait GitHub asks for. Default 3. */
  rateLimitRetries?: number;
  circuitBreaker?: CircuitBreakerOptions;
}

export interface GitHubClient {
  octokit: GitHubOctokit;
  quota: GitHubQuota;
  circuit: CircuitBreaker;
  /** The token git pushes with: the token, or the App's current installation token (refreshed as needed). */
  gitToken(): Promise<string>;
  /** The login the engine's writes are authored by: the token's user, or the App's bot (`<slug>[bot]`). */
  login(): Promise<string>;
}

/** A request error as @octokit/request throws it (not imported: the package is octokit's, not ours). */
export function httpStatusOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null || !('status' in error)) return null;
  return typeof error.status === 'number' ? error.status : null;
}

/**
 * One Octokit for every caller of a token: plugin-throttling (secondary limits and an exhausted budget
 * retried after the wait GitHub asks for), retries of 5xx answers, an ETag / Last-Modified cache (an unchanged
 * resource costs a free 304), and the quota manager (writes ≤ 1/s, a reserve, pauses for rate limits), which sees every HTTP attempt (retries included) through
 * the fetch it wraps. A 401 becomes an error naming the token's environment variable; the token itself is
 * never logged (octokit redacts it from errors; its log goes to our logger without request headers).
 */
export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const { logger, token, app } = options;
  if ((token === undefined) === (app === undefined)) {
    throw new Error('createGitHubClient: give exactly one of a token and GitHub App credentials');
  }
  const quota = createGitHubQuota(options.quota);
  const circuit = createCircuitBreaker(options.circuitBreaker);
  const rateLimitRetries = options.rateLimitRetries ?? 3;
  const apiUrl = (options.apiUrl ?? 'https://api.github.com').replace(/\/+$/, '');

  const quotaFetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
    const method = init?.method ?? 'GET';
    // A retry after the circuit opened: no more attempts. Named AbortError so that @octokit/request passes
    // it on as it is and plugin-retry does not retry it (it retries request errors only).
    if (circuit.snapshot().state === 'open') {
      throw Object.assign(new GitHubUnavailableError(circuit.snapshot()), { name: 'AbortError' });
    }
    // A GraphQL query is a read (a mutation would be a write; Flotilla sends none).
    await quota.beforeRequest({
      method: path.endsWith('/graphql') ? 'GET' : method,
      conditional: headers.has('if-none-match') || headers.has('if-modified-since'),
    });
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      circuit.recordFailure(`${error instanceof Error ? error.message : String(error)} on ${method} ${path}`);
      const code = GitHubUnreachableError.codeOf(error);
      // Not retried (AbortError, as above): nothing listens there, and a command should say so at once; the
      // engine's pollers ask again at their next tick anyway.
      if (code !== null) {
        const unreachable = new GitHubUnreachableError(apiUrl, code);
        throw Object.assign(unreachable, { name: 'AbortError', cause: error });
      }
      throw error;
    }
    if (response.status >= 500) circuit.recordFailure(`${response.status} on ${method} ${path}`);
    else circuit.recordSuccess();
    quota.observe(response);
    return response;
  };

  const onLimit =
    (kind: string) =>
    (retryAfter: number, request: { method: string; url: string }, _octokit: unknown, retryCount: number) => {
      const retrying = retryCount < rateLimitRetries;
      logger.warn(`GitHub ${kind}: ${retrying ? `retrying in ${retryAfter}s` : 'giving up'}`, {
        method: request.method,
        url: request.url,
        retryCount,
      });
      return retrying;
    };

  const octokit = new GitHubOctokit({
    ...(app === undefined
      ? { auth: token?.value }
      : {
          authStrategy: createAppAuth,
          auth: {
            appId: app.appId,
            privateKey: app.privateKey,
            installationId: app.installationId,
            cache: createInstallationTokenCache({
              refreshBeforeExpiryMs: options.appTokenRefreshBeforeExpiryMs,
            }),
          },
        }),
    baseUrl: apiUrl,
    userAgent: 'flotilla',
    request: { fetch: quotaFetch },
    throttle: {
      // The quota manager spaces writes (one place, one policy); the plugin's own write and notification
      // queues would add a second, global spacing on top.
      write: UNTHROTTLED_GROUP,
      notifications: UNTHROTTLED_GROUP,
      onSecondaryRateLimit: onLimit('secondary rate limit'),
      onRateLimit: onLimit('rate limit exhausted'),
    },
    retry: {
      // Only what may succeed later is retried (5xx): plugin-retry's default list would also retry 405 (not
      // mergeable, branch protection) and 409 (head moved), which fail the same way every time.
      doNotRetry: [400, 401, 403, 404, 405, 409, 410, 422, 451],
      retries: options.serverErrorRetry?.retries ?? 3,
      retryAfterBaseValue: options.serverErrorRetry?.baseDelayMs ?? 1000,
    },
    log: {
      debug: () => {},
      info: () => {},
      warn: (message: string) => logger.warn(`octokit: ${message}`),
      // Octokit logs every request that ends in an error, and a 304 is one to it: here it is the free answer
      // of a conditional request (installConditionalRequestCache), not a failure, and hundreds of them
      // pushed the log's real messages out of reach.
      error: (message: string) => {
        if (!NOT_MODIFIED_REQUEST.test(message)) logger.error(`octokit: ${message}`);
      },
    },
  });

  installConditionalRequestCache(octokit);
  octokit.hook.wrap('request', async (request, requestOptions) => {
    // Outermost: an open circuit fails the call at once, before the retry plugins see it.
    circuit.beforeRequest();
    try {
      return await request(requestOptions);
    } catch (error) {
      if (error instanceof GitHubUnavailableError) throw new GitHubUnavailableError(circuit.snapshot());
      const status = httpStatusOf(error);
      const where = `${requestOptions.method} ${requestOptions.url}`;
      if (app !== undefined && isAppEndpoint(requestOptions.url) && (status === 401 || status === 404)) {
        // The App's own endpoints (installation tokens), authenticated by a JWT signed with the private key.
        const ErrorClass = status === 401 ? GitHubCredentialsRejectedError : Error;
        throw new ErrorClass(
          status === 401
            ? `GitHub rejected the App's JWT (401) on ${where}: check ${GITHUB_APP_VARIABLES.appId} (${app.appId}) and the private key in ${app.privateKeySource} (a key of that App, not revoked)`
            : `GitHub found no installation ${app.installationId} of App ${app.appId} (404) on ${where}: check ${GITHUB_APP_VARIABLES.installationId} and that the App is installed on the repository's owner`,
          { cause: error },
        );
      }
      if (status !== 401) throw error;
      const rejected =
        app === undefined
          ? `the token in ${token?.variable}`
          : `the installation token of App ${app.appId} (${GITHUB_APP_VARIABLES.appId}, ${GITHUB_APP_VARIABLES.installationId})`;
      const fix =
        app === undefined
          ? `set ${token?.variable} to a valid token with access to the repository`
          : 'check that the installation still exists and has access to the repository';
      throw new GitHubCredentialsRejectedError(
        `GitHub rejected ${rejected} (401 Bad credentials) on ${where}: ${fix}`,
        {
          cause: error,
        },
      );
    }
  });

  let login: Promise<string> | null = null;
  return {
    octokit,
    quota,
    circuit,
    async gitToken() {
      if (app === undefined) return token?.value ?? '';
      // From the cache unless it is near its expiry (then a new one).
      const { token: installationToken } = (await octokit.auth({ type: 'installation' })) as {
        token: string;
      };
      return installationToken;
    },
    login() {
      login ??=
        app === undefined
          ? octokit.rest.users.getAuthenticated().then(({ data }) => data.login)
          : // An installation token cannot read GET /user; the App (JWT) can read itself.
            octokit.rest.apps.getAuthenticated().then(({ data }) => `${data?.slug ?? ''}[bot]`);
      login.catch(() => {
        login = null; // a failed lookup is asked again next time
      });
      return login;
    },
  };
}

/** `/app` and `/app/…` (the App's own endpoints, JWT-authenticated), from a path or a full URL. */
function isAppEndpoint(url: string): boolean {
  return /^\/app(\/|$)/.test(url.replace(/^https?:\/\/[^/]+(\/api\/v3)?/, ''));
}
