import { readFileSync } from 'node:fs';
import { type GitHubToken, readGitHubToken } from './read-github-token.ts';

/** The environment variables of GitHub App authentication. */
export const GITHUB_APP_VARIABLES = {
  appId: 'FLOTILLA_GITHUB_APP_ID',
  privateKey: 'FLOTILLA_GITHUB_APP_PRIVATE_KEY',
  privateKeyFile: 'FLOTILLA_GITHUB_APP_PRIVATE_KEY_FILE',
  installationId: 'FLOTILLA_GITHUB_APP_INSTALLATION_ID',
} as const;

/** A GitHub App installation: installation tokens are made from these (never the config file). */
export interface GitHubAppCredentials {
  appId: number;
  /** PEM text. */
  privateKey: string;
  installationId: number;
  /** Where the key came from, for error messages (a variable, or a variable and the file it names). */
  privateKeySource: string;
}

export type GitHubCredentials = { token: GitHubToken } | { app: GitHubAppCredentials };

/**
 * GitHub credentials from the environment: a GitHub App when any `FLOTILLA_GITHUB_APP_*` variable is set
 * (then all of app id, private key — text or file — and installation id are required), else a token
 * (`FLOTILLA_GITHUB_TOKEN`, `GITHUB_TOKEN`). Errors name the variable and what was expected, never a value.
 */
export function readGitHubCredentials(env: Readonly<Record<string, string | undefined>>): GitHubCredentials {
  const value = (name: string) => env[name]?.trim() || undefined;
  const names = Object.values(GITHUB_APP_VARIABLES);
  if (!names.some((name) => value(name) !== undefined)) return { token: readGitHubToken(env) };

  const appId = positiveInteger(
    value(GITHUB_APP_VARIABLES.appId),
    GITHUB_APP_VARIABLES.appId,
    "the App's numeric id (its settings page: App ID)",
  );
  const installationId = positiveInteger(
    value(GITHUB_APP_VARIABLES.installationId),
    GITHUB_APP_VARIABLES.installationId,
    "the numeric id of the App's installation on the repository's owner (the last part of the installation's settings URL)",
  );
  const inline = value(GITHUB_APP_VARIABLES.privateKey);
  const file = value(GITHUB_APP_VARIABLES.privateKeyFile);
  let privateKey: string;
  let privateKeySource: string;
  if (inline !== undefined) {
    // Environments often carry a PEM on one line with literal \n.
    privateKey = inline.includes('\\n') && !inline.includes('\n') ? inline.replaceAll('\\n', '\n') : inline;
    privateKeySource = GITHUB_APP_VARIABLES.privateKey;
  } else if (file !== undefined) {
    privateKeySource = `${GITHUB_APP_VARIABLES.privateKeyFile} (${file})`;
    try {
      privateKey = readFileSync(file, 'utf8');
    } catch (error) {
      throw new Error(
        `provider github: cannot read the App's private key file named by ${GITHUB_APP_VARIABLES.privateKeyFile} (${file}): ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
  } else {
    throw new Error(
      `provider github: GitHub App authentication needs the App's private key: set ${GITHUB_APP_VARIABLES.privateKey} to the PEM text or ${GITHUB_APP_VARIABLES.privateKeyFile} to the .pem file's path`,
    );
  }
  if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(privateKey)) {
    throw new Error(
      `provider github: ${privateKeySource} is not a PEM private key (expected "-----BEGIN RSA PRIVATE KEY-----", as GitHub generates it)`,
    );
  }
  return { app: { appId, privateKey, installationId, privateKeySource } };
}

function positiveInteger(raw: string | undefined, variable: string, expected: string): number {
  if (raw === undefined) {
    throw new Error(`provider github: GitHub App authentication needs ${variable}: set it to ${expected}`);
  }
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) {
    throw new Error(`provider github: ${variable} must be ${expected}; got a value that is not one`);
  }
  return Number(raw);
}
