/**
 * GitHub answered 401 to the configured credentials (a wrong, expired or revoked token, or an App key that
 * does not match): the message names where they came from and what to set. Its own class so `doctor` and
 * `github check` report it as a token problem, not as an unreachable repository.
 * GitHub's rule: https://docs.github.com/en/rest/using-the-rest-api/troubleshooting-the-rest-api#401-unauthorized
 */
export class GitHubCredentialsRejectedError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'GitHubCredentialsRejectedError';
  }
}
