/** Environment variable names whose values are credentials (ANTHROPIC_API_KEY, GITHUB_TOKEN, …). */
const SECRET_NAME = /(?:^|_)(?:KEY|TOKEN|SECRET|PASSWORD|PASSPHRASE|CREDENTIALS?)$/i;

/** Shorter values are not credentials, and replacing them would garble ordinary text. */
const MIN_SECRET_LENGTH = 8;

export function isSecretEnvName(name: string): boolean {
  return SECRET_NAME.test(name);
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
      return isSecretEnvName(name) && value !== undefined && value.length >= MIN_SECRET_LENGTH;
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
