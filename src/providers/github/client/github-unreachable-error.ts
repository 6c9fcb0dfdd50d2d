/** Connection failures: the host is not there (DNS) or nothing answers; retrying at once changes nothing. */
const CONNECTION_FAILURE_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * GitHub's API could not be reached at all (no DNS answer, connection refused, no route): one clear line
 * naming the address and what to check, instead of `fetch failed` after the retry plugin's back-off (~14 s).
 */
export class GitHubUnreachableError extends Error {
  constructor(
    readonly apiUrl: string,
    readonly code: string,
  ) {
    super(
      `cannot reach GitHub at ${apiUrl} (${code}): check the network connection, and github.apiUrl in flotilla.config.json (set only for GitHub Enterprise Server)`,
    );
    this.name = 'GitHubUnreachableError';
  }

  /** The connection failure code of a `fetch` error (`TypeError: fetch failed` with its cause), or null. */
  static codeOf(error: unknown): string | null {
    for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; depth += 1) {
      const code = (current as { code?: unknown }).code;
      if (typeof code === 'string' && CONNECTION_FAILURE_CODES.has(code)) return code;
      current = current.cause;
    }
    return null;
  }
}
