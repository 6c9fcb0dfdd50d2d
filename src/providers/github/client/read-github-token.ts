/** The environment variables a GitHub token is read from, in order of preference. */
export const GITHUB_TOKEN_VARIABLES = ['FLOTILLA_GITHUB_TOKEN', 'GITHUB_TOKEN'] as const;
/** The optional second identity's token: it posts reviews only (a pull request's author cannot approve it). */
export const GITHUB_REVIEWER_TOKEN_VARIABLE = 'FLOTILLA_GITHUB_REVIEWER_TOKEN';
export type GitHubTokenVariable =
  | (typeof GITHUB_TOKEN_VARIABLES)[number]
  | typeof GITHUB_REVIEWER_TOKEN_VARIABLE;

/** A token and the variable it came from (error messages name the variable, never the token). */
export interface GitHubToken {
  value: string;
  variable: GitHubTokenVariable;
}

/**
 * The GitHub token from the environment: `FLOTILLA_GITHUB_TOKEN`, else `GITHUB_TOKEN`. Tokens are never read
 * from the config file. Throws, naming both variables, when neither is set.
 */
export function readGitHubToken(env: Readonly<Record<string, string | undefined>>): GitHubToken {
  for (const variable of GITHUB_TOKEN_VARIABLES) {
    const value = env[variable]?.trim();
    if (value) return { value, variable };
  }
  throw new Error(
    'provider github: no GitHub token: set FLOTILLA_GITHUB_TOKEN (or GITHUB_TOKEN) to a token with read/write access to the repository’s issues, pull requests and contents, or use a GitHub App (FLOTILLA_GITHUB_APP_ID, FLOTILLA_GITHUB_APP_PRIVATE_KEY or FLOTILLA_GITHUB_APP_PRIVATE_KEY_FILE, FLOTILLA_GITHUB_APP_INSTALLATION_ID)',
  );
}
