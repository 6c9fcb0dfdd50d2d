import { join } from 'node:path';

export interface ModelServerEnvInput {
  /** The model server's URL (`server.url`). Must point at 127.0.0.1 or localhost. */
  baseUrl: string;
  /** A per-run temp dir; the CLI's config dir and temp dir go below it (`config/`, `tmp/`). */
  stateDir: string;
  /** Environment to start from (default `process.env`); credentials and provider switches are removed. */
  baseEnv?: Record<string, string | undefined>;
  /** Add IS_SANDBOX=1 so bypassPermissions works as root (default: the current uid is 0). */
  isRoot?: boolean;
  /** Extra variables, applied last. */
  extra?: Record<string, string>;
}

/** Variables never passed to the child: real credentials and switches to other providers. */
const REMOVED = [
  /^ANTHROPIC_/,
  /^CLAUDE_CODE_OAUTH_TOKEN/,
  /^CLAUDE_CODE_USE_(BEDROCK|VERTEX|FOUNDRY)/,
  /^CLAUDECODE$/,
  /^CLAUDE_CODE_ENTRYPOINT$/,
  /^AWS_BEARER_TOKEN_BEDROCK$/,
];

const LOCAL_HOSTS = ['127.0.0.1', 'localhost'];

/**
 * The environment for the SDK's `claude` child so it talks only to the scripted server: base URL, a dummy
 * API key, the quiet-traffic variables, IS_SANDBOX as root, CLAUDE_CONFIG_DIR / CLAUDE_CODE_TMPDIR under
 * `stateDir`, and 127.0.0.1 excluded from any proxy. Pass it as `options.env` of `query()` (it replaces the
 * child's environment, so PATH and friends come from `baseEnv`).
 */
export function buildModelServerEnv(input: ModelServerEnvInput): Record<string, string> {
  const host = new URL(input.baseUrl).hostname;
  if (!LOCAL_HOSTS.includes(host)) {
    throw new Error(
      `buildModelServerEnv: ${input.baseUrl} is not a local model server (127.0.0.1 or localhost)`,
    );
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.baseEnv ?? process.env)) {
    if (value !== undefined && !REMOVED.some((pattern) => pattern.test(key))) env[key] = value;
  }
  const isRoot = input.isRoot ?? process.getuid?.() === 0;
  const noProxy = [env.NO_PROXY ?? env.no_proxy, ...LOCAL_HOSTS].filter(
    (part) => part !== undefined && part !== '',
  );
  Object.assign(env, {
    ANTHROPIC_BASE_URL: input.baseUrl,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CONFIG_DIR: join(input.stateDir, 'config'),
    CLAUDE_CODE_TMPDIR: join(input.stateDir, 'tmp'),
    NO_PROXY: noProxy.join(','),
    no_proxy: noProxy.join(','),
  });
  if (isRoot) env.IS_SANDBOX = '1';
  return { ...env, ...input.extra };
}
