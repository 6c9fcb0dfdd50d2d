import {
  GITHUB_APP_VARIABLES,
  type GitHubCredentials,
  readGitHubCredentials,
} from './read-github-credentials.ts';
import { GITHUB_REVIEWER_TOKEN_VARIABLE } from './read-github-token.ts';

const MAIN_APP_PREFIX = 'FLOTILLA_GITHUB_APP_';
/** The reviewer's App variables mirror the main App's: `FLOTILLA_GITHUB_REVIEWER_APP_ID`, … */
export const GITHUB_REVIEWER_APP_PREFIX = 'FLOTILLA_GITHUB_REVIEWER_APP_';

/**
 * The optional second identity that posts reviews (and nothing else): a second GitHub App
 * (`FLOTILLA_GITHUB_REVIEWER_APP_*`, the same four variables as the main App's) or a token
 * (`FLOTILLA_GITHUB_REVIEWER_TOKEN`). Null when neither is set: reviews go out as the main identity. Errors
 * name the reviewer's variables, never a value.
 */
export function readGitHubReviewerCredentials(
  env: Readonly<Record<string, string | undefined>>,
): GitHubCredentials | null {
  const value = (name: string) => env[name]?.trim() || undefined;
  const appNames = Object.values(GITHUB_APP_VARIABLES);
  const reviewerApp = Object.fromEntries(
    appNames.map((name) => [name, value(name.replace(MAIN_APP_PREFIX, GITHUB_REVIEWER_APP_PREFIX))]),
  );
  if (appNames.some((name) => reviewerApp[name] !== undefined)) {
    try {
      // The main App's reader and checks, on the reviewer's variables.
      const credentials = readGitHubCredentials(reviewerApp);
      if (!('app' in credentials)) throw new Error('unreachable: App variables read as a token');
      const source = credentials.app.privateKeySource.replaceAll(MAIN_APP_PREFIX, GITHUB_REVIEWER_APP_PREFIX);
      return { app: { ...credentials.app, privateKeySource: source } };
    } catch (error) {
      throw new Error(
        (error instanceof Error ? error.message : String(error)).replaceAll(
          MAIN_APP_PREFIX,
          GITHUB_REVIEWER_APP_PREFIX,
        ),
      );
    }
  }
  const token = value(GITHUB_REVIEWER_TOKEN_VARIABLE);
  return token === undefined ? null : { token: { value: token, variable: GITHUB_REVIEWER_TOKEN_VARIABLE } };
}
