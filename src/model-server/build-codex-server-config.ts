export interface CodexServerConfigInput {
  /** The model server's URL (`server.url`). Must point at 127.0.0.1 or localhost. */
  baseUrl: string;
  /** The per-run `CODEX_HOME` (config, sessions, logs, sqlite state go there; write `configToml` into it). */
  codexHome: string;
  /** Environment to start from (default `process.env`); credentials and provider switches are removed. */
  baseEnv?: Record<string, string | undefined>;
  /** Model name sent in requests (the server answers as whichever model is asked for). */
  model: string;
  /** The provider's `request_max_retries` (codex's default is 4: HTTP 5xx/429 are retried with backoff). */
  requestMaxRetries?: number;
  /** The provider's `stream_max_retries` (codex's default is 5: a stream cut before completion is retried). */
  streamMaxRetries?: number;
  /**
   * `false`: the workspace-write sandbox no longer lets commands write to /tmp and $TMPDIR
   * (`sandbox_workspace_write.exclude_slash_tmp` / `exclude_tmpdir_env_var`), only to the working directory.
   * Default: codex's own (both writable).
   */
  writableTmp?: boolean;
  /**
   * `true`: set HTTPS_PROXY / HTTP_PROXY / ALL_PROXY (both cases) to the model server, so anything codex or
   * git try to reach outside 127.0.0.1 arrives there as a CONNECT and shows in `report().outside` (the model
   * traffic itself stays direct: NO_PROXY). For tests.
   */
  proxyTripwire?: boolean;
  /** Extra variables, applied last. */
  extra?: Record<string, string>;
}

export interface CodexServerConfig {
  /** Contents for `<codexHome>/config.toml`. */
  configToml: string;
  /** The environment for the codex binary (`new Codex({ env })` replaces the child's environment). */
  env: Record<string, string>;
}

/** The provider id in config.toml, and the variable holding its (dummy) API key. */
export const CODEX_SCRIPTED_PROVIDER = 'flotilla-scripted';
export const CODEX_SCRIPTED_KEY_VAR = 'FLOTILLA_SCRIPTED_API_KEY';

/** Variables never passed to the child: real credentials and switches to other providers. */
const REMOVED = [/^OPENAI_/, /^CODEX_/, /^AZURE_OPENAI_/, /^ANTHROPIC_/, /^CLAUDE_CODE_OAUTH_TOKEN/];
const LOCAL_HOSTS = ['127.0.0.1', 'localhost'];

/**
 * What the codex binary (`@openai/codex-sdk`) needs to talk only to the scripted model server: a
 * config.toml with a custom Responses-API provider at `<baseUrl>/v1` (no WebSocket attempt, dummy key from
 * an env var, no OpenAI login) and with the outside traffic codex 0.163 makes by default switched off —
 * `analytics.enabled = false` (events to chatgpt.com), `features.plugins = false` (a `git ls-remote` of
 * github.com/openai/plugins and api.github.com), plus update check, feedback and web search off — and the
 * child environment: `CODEX_HOME`, the dummy key, 127.0.0.1 excluded from any proxy, no OpenAI/Anthropic
 * credentials.
 */
export function buildCodexServerConfig(input: CodexServerConfigInput): CodexServerConfig {
  const host = new URL(input.baseUrl).hostname;
  if (!LOCAL_HOSTS.includes(host)) {
    throw new Error(
      `buildCodexServerConfig: ${input.baseUrl} is not a local model server (127.0.0.1 or localhost)`,
    );
  }
  const baseUrl = `${input.baseUrl.replace(/\/+$/, '')}/v1`;
  const configToml = [
    '# Written by Flotilla for one codex run against its scripted model server on 127.0.0.1.',
    `model = ${tomlString(input.model)}`,
    `model_provider = ${tomlString(CODEX_SCRIPTED_PROVIDER)}`,
    'check_for_update_on_startup = false',
    'web_search = "disabled"',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[features]',
    'plugins = false',
    '',
    `[model_providers.${CODEX_SCRIPTED_PROVIDER}]`,
    'name = "Flotilla scripted model server"',
    `base_url = ${tomlString(baseUrl)}`,
    `env_key = ${tomlString(CODEX_SCRIPTED_KEY_VAR)}`,
    'wire_api = "responses"',
    'supports_websockets = false',
    ...(input.requestMaxRetries === undefined ? [] : [`request_max_retries = ${input.requestMaxRetries}`]),
    ...(input.streamMaxRetries === undefined ? [] : [`stream_max_retries = ${input.streamMaxRetries}`]),
    ...(input.writableTmp === false
      ? ['', '[sandbox_workspace_write]', 'exclude_slash_tmp = true', 'exclude_tmpdir_env_var = true']
      : []),
    '',
  ].join('\n');

  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.baseEnv ?? process.env)) {
    if (value !== undefined && !REMOVED.some((pattern) => pattern.test(key))) env[key] = value;
  }
  const noProxy = [env.NO_PROXY ?? env.no_proxy, ...LOCAL_HOSTS].filter(
    (part) => part !== undefined && part !== '',
  );
  if (input.proxyTripwire === true) {
    for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'ALL_PROXY']) {
      env[name] = input.baseUrl;
      env[name.toLowerCase()] = input.baseUrl;
    }
  }
  Object.assign(env, {
    CODEX_HOME: input.codexHome,
    [CODEX_SCRIPTED_KEY_VAR]: 'dummy',
    NO_PROXY: noProxy.join(','),
    no_proxy: noProxy.join(','),
  });
  return { configToml, env: { ...env, ...input.extra } };
}

/** A TOML basic string (JSON string escapes are valid TOML escapes). */
function tomlString(value: string): string {
  return JSON.stringify(value);
}
