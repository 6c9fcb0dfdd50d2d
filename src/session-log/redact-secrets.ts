/**
 * Environment variable names whose values are credentials: ANTHROPIC_API_KEY, GITHUB_TOKEN, STRIPE_APIKEY,
 * MYSQL_PWD, CI_JOB_JWT, SENTRY_DSN, SLACK_WEBHOOK_URL, AZURE_STORAGE_CONNECTION_STRING, DOCKER_AUTH_CONFIG.
 */
const SECRET_NAME =
  /(?:^|_)(?:KEY|TOKEN|SECRET|PASSWORD|PASSPHRASE|CREDENTIALS?|PWD|PASSWD|JWT|DSN|WEBHOOK(?:_URL)?|CONNECTION_STRING|AUTH_CONFIG)$|APIKEY$/i;

/**
 * Values that carry a credential whatever their variable is called: a URL with a password
 * (`postgres://app:pw@db/app`, `redis://:pw@cache`) or a connection string with a key or password in it.
 */
const SECRET_VALUE =
  /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]+@|(?:^|;)\s*(?:AccountKey|Password|Pwd|SharedAccessKey|SharedAccessSignature)=/i;

/** Shorter values are not credentials, and replacing them would garble ordinary text. */
const MIN_SECRET_LENGTH = 8;

export function isSecretEnvName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** True when the variable's name or its value says it holds a credential. */
export function isSecretEnvEntry(name: string, value: string): boolean {
  return SECRET_NAME.test(name) || SECRET_VALUE.test(value);
}

/** The password of a URL's user information (`scheme://user:PASSWORD@host`), which may appear on its own. */
function urlPasswordOf(value: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/@\s:]*:([^/@\s]+)@/i.exec(value);
  return match ? match[1]! : null;
}

/**
 * A function that replaces the value of every secret-looking environment variable with
 * `[REDACTED:<NAME>]`. Built once per environment: the set of secrets is fixed for a session.
 */
export function createSecretRedactor(
  env: Readonly<Record<string, string | undefined>> = process.env,
): (text: string) => string {
  const secrets = Object.entries(env)
    .filter((entry): entry is [string, string] => {
      const [name, value] = entry;
      return value !== undefined && value.length >= MIN_SECRET_LENGTH && isSecretEnvEntry(name, value);
    })
    // A URL's password is redacted on its own too: tools print it apart from the URL.
    .flatMap(([name, value]): [string, string][] => {
      const password = urlPasswordOf(value);
      return password !== null && password.length >= MIN_SECRET_LENGTH
        ? [
            [name, value],
            [name, password],
          ]
        : [[name, value]];
    })
    // Longest first, so a secret that contains another is replaced whole.
    .sort(([, a], [, b]) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let redacted = text;
    for (const [name, value] of secrets) {
      if (redacted.includes(value)) redacted = redacted.split(value).join(`[REDACTED:${name}]`);
    }
    return redacted;
  };
}

/** Redacts secret environment values from `text` (see createSecretRedactor). */
export function redact(
  text: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return createSecretRedactor(env)(text);
}
