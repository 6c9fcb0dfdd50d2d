/**
 * Variables every agent process may inherit: they locate programs, the home directory, the locale, the
 * terminal, the time zone, temporary files and CA bundles, and git's commit identity. None holds a secret.
 * Everything else in Flotilla's environment stays out unless the runtime needs it (its model credential and
 * endpoint) or the user lists it (`passEnv`): an allow-list, because a deny-list of secret-looking names
 * misses `DATABASE_URL`, `SLACK_WEBHOOK_URL`, `SSH_AUTH_SOCK`, `SENTRY_DSN` and the rest.
 */
export const BASE_ENV_VARIABLES: readonly string[] = [
  'PATH',
  'HOME', // the sandbox layer may replace it with a sandbox home
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'TZ',
  'TMPDIR',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NO_PROXY',
  'no_proxy',
  // The agent commits its work; without an identity `git commit` fails on a machine with no git config.
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
];

/** `LC_ALL`, `LC_CTYPE`, …: the locale. */
const LOCALE_VARIABLE = /^LC_[A-Z_]+$/;

/** True when `name` is one of the base variables every agent may inherit. */
export function isBaseEnvVariable(name: string): boolean {
  return BASE_ENV_VARIABLES.includes(name) || LOCALE_VARIABLE.test(name);
}

/**
 * The variables of `baseEnv` an agent may see: the base variables, plus `allowed` (the runtime's own model
 * credential, endpoint and settings, and what the user passes). Unset values are left out.
 */
export function pickAllowedEnv(
  baseEnv: Readonly<Record<string, string | undefined>>,
  allowed: Iterable<string>,
): Record<string, string> {
  const extra = new Set(allowed);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(baseEnv)) {
    if (value === undefined) continue;
    if (isBaseEnvVariable(name) || extra.has(name)) env[name] = value;
  }
  return env;
}
