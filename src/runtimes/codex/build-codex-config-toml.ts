/**
 * A model provider codex reaches over the OpenAI Responses API. Absent: codex's built-in `openai` provider
 * (key from `CODEX_API_KEY` / `OPENAI_API_KEY`).
 */
export interface CodexProvider {
  /** The provider id in config.toml (`[model_providers.<id>]`). */
  id: string;
  /** The Responses API base, e.g. `http://127.0.0.1:4000/v1`. */
  baseUrl: string;
  /** The variable holding the provider's API key (kept in codex's environment, never in its commands'). */
  envKey: string;
  /** HTTP 5xx/429 retries (codex's default: 4). */
  requestMaxRetries?: number;
}

export interface CodexConfigTomlInput {
  model?: string;
  provider?: CodexProvider;
  /** The role's instructions (`developer_instructions`: codex sends them as a developer message). */
  developerInstructions: string;
  /** Directories besides the working directory that codex's own workspace-write sandbox lets commands write. */
  writableRoots?: readonly string[];
  /**
   * Flotilla's tools as a stdio MCP server (`[mcp_servers.flotilla]`, issue #28 §2): the per-run `flotilla`
   * script and `agent mcp`. Codex starts it with its own minimal environment; the script names the run's
   * notes file and role itself, so the server gets no credential.
   */
  toolServer?: { command: string; args: readonly string[] };
}

/** Codex's name for the tool server: it offers the tools to the model as the namespace `mcp__flotilla`. */
export const CODEX_TOOL_SERVER = 'flotilla';

/** Seconds codex waits for a tool call: the longest `ask_agent` wait (1,800 s) and the reply's grace. */
const TOOL_TIMEOUT_SECONDS = 1900;
/** Seconds codex waits for the server to start (node and Flotilla's CLI, on a loaded machine). */
const TOOL_SERVER_STARTUP_SECONDS = 60;

/**
 * Variable-name patterns the sandboxed commands never inherit (on top of `inherit = "core"`, which already
 * keeps only HOME, PATH, SHELL, LANG, USER and the like): the agent's commands run code it wrote.
 */
export const COMMAND_ENV_EXCLUDES = [
  '*KEY*',
  '*TOKEN*',
  '*SECRET*',
  '*PASSWORD*',
  '*PASSWD*',
  '*CREDENTIAL*',
  'OPENAI_*',
  'ANTHROPIC_*',
  'AWS_*',
  'GH_*',
  'GITHUB_*',
  'FLOTILLA_*',
];

/**
 * The per-run `<CODEX_HOME>/config.toml`. Outside traffic codex 0.163 makes by default is switched off
 * (`analytics.enabled = false`: chatgpt.com; `features.plugins = false`: a `git ls-remote` of github.com and
 * api.github.com; update check, feedback, web search off — see src/model-server/README.md, Codex). Sandboxed
 * commands get a minimal environment without credentials, may write only the working directory (not /tmp)
 * and have no network, and run in a non-login shell that keeps the PATH Flotilla gives. Flotilla's tools
 * come from the run's stdio MCP server (`toolServer`). Sandbox mode and approval policy are thread options (per role).
 */
export function buildCodexConfigToml(input: CodexConfigTomlInput): string {
  const { provider } = input;
  return [
    '# Written by Flotilla for one codex run; removed with the run.',
    ...(input.model === undefined ? [] : [`model = ${tomlString(input.model)}`]),
    ...(provider === undefined ? [] : [`model_provider = ${tomlString(provider.id)}`]),
    `developer_instructions = ${tomlString(input.developerInstructions)}`,
    'check_for_update_on_startup = false',
    // Commands run in a plain (non-login) shell: a login shell's /etc/profile resets PATH, which would drop
    // the per-run `flotilla` script (`flotilla agent <verb>`, runtimes/shared/agent-command-channel.ts).
    'allow_login_shell = false',
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
    '[shell_environment_policy]',
    'inherit = "core"',
    'ignore_default_excludes = false',
    `exclude = [${COMMAND_ENV_EXCLUDES.map(tomlString).join(', ')}]`,
    '',
    '[sandbox_workspace_write]',
    'network_access = false',
    'exclude_slash_tmp = true',
    'exclude_tmpdir_env_var = true',
    ...(input.writableRoots === undefined || input.writableRoots.length === 0
      ? []
      : [`writable_roots = [${input.writableRoots.map(tomlString).join(', ')}]`]),
    ...toolServerSection(input.toolServer),
    ...(provider === undefined
      ? []
      : [
          '',
          `[model_providers.${tomlKey(provider.id)}]`,
          `name = ${tomlString(provider.id)}`,
          `base_url = ${tomlString(provider.baseUrl)}`,
          `env_key = ${tomlString(provider.envKey)}`,
          'wire_api = "responses"',
          'supports_websockets = false',
          ...(provider.requestMaxRetries === undefined
            ? []
            : [`request_max_retries = ${provider.requestMaxRetries}`]),
        ]),
    '',
  ].join('\n');
}

/** `[mcp_servers.flotilla]`: the run's tool server (none without one). */
function toolServerSection(server: CodexConfigTomlInput['toolServer']): string[] {
  if (server === undefined) return [];
  return [
    '',
    `[mcp_servers.${CODEX_TOOL_SERVER}]`,
    `command = ${tomlString(server.command)}`,
    `args = [${server.args.map(tomlString).join(', ')}]`,
    // Codex waits for it before the first request (else the tools come only with a later one), and a
    // server that cannot start fails the run instead of leaving the agent without its tools.
    'required = true',
    // Flotilla's own tools, checked by Flotilla: no approval (the thread's policy is `never`).
    'default_tools_approval_mode = "approve"',
    `startup_timeout_sec = ${TOOL_SERVER_STARTUP_SECONDS}`,
    `tool_timeout_sec = ${TOOL_TIMEOUT_SECONDS}`,
  ];
}

/** A TOML basic string (JSON string escapes are valid TOML escapes). */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}
