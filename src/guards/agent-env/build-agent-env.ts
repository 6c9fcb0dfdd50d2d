import { join } from 'node:path';
import { pickAllowedEnv } from './pick-allowed-env.ts';

// The way in for the other runtimes' environments (codex, agent CLIs): the same base allow-list.
export { BASE_ENV_VARIABLES, isBaseEnvVariable, pickAllowedEnv } from './pick-allowed-env.ts';

/** Variables the claude CLI itself needs to reach the model. */
export const MODEL_ACCESS_VARIABLES: ReadonlySet<string> = new Set([
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
]);

/** The claude CLI's own non-secret settings a user (or a test) may set in Flotilla's environment. */
export const CLAUDE_SETTING_VARIABLES: readonly string[] = [
  'CLAUDE_CODE_MAX_RETRIES',
  'ANTHROPIC_MODEL',
  'ANTHROPIC_SMALL_FAST_MODEL',
  'API_TIMEOUT_MS',
];

/** Keeps the CLI quiet: no telemetry, error reports or other traffic besides the model API. */
export const QUIET_TRAFFIC_VARIABLES: Readonly<Record<string, string>> = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
};

export interface AgentEnvInput {
  /** The environment to start from (normally process.env). */
  baseEnv: Readonly<Record<string, string | undefined>>;
  /** Per-run directory for the CLI's config and temp files (CLAUDE_CONFIG_DIR, CLAUDE_CODE_TMPDIR). */
  runStateDir: string;
  /** Running as root: bypassPermissions is refused unless IS_SANDBOX=1. */
  isRoot: boolean;
  /** Variables the agent may see besides the base ones (config `passThroughEnv`). */
  passThrough?: readonly string[] | undefined;
  /** Variables the agent may see besides the base ones (config `sandbox.passEnv`); added to `passThrough`. */
  passEnv?: readonly string[];
  /** Added after the base (e.g. ANTHROPIC_BASE_URL for the scripted model server). */
  extra?: Readonly<Record<string, string>> | undefined;
  /** The run's account (config `accounts`), when its runtime has accounts: applied last. */
  account?: AgentEnvAccount;
}

/**
 * A credential profile: `env` maps the variables the agent gets to the variables of Flotilla's own
 * environment that hold them (`{ ANTHROPIC_API_KEY: '$WORK_ANTHROPIC_KEY' }`). `allSources` are the
 * variables every account of the runtime reads: none of them reaches any agent under its own name.
 */
export interface AgentEnvAccount {
  name: string;
  env: Readonly<Record<string, string>>;
  allSources: readonly string[];
}

/** The credentials an account replaces: with accounts, only the run's account's reach the agent. */
const ACCOUNT_CREDENTIAL_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'];

/** `$NAME` or `${NAME}` → NAME; null for anything else. */
export function parseVariableReference(value: string): string | null {
  const match = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/.exec(value);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/**
 * The agent's environment. The SDK replaces the child's environment with this, so it is the whole of what
 * the agent can read. It is an allow-list (pick-allowed-env.ts): the base variables, the model credentials
 * and settings the claude CLI needs, and what the user passes (`passThrough`, `passEnv`); every other
 * variable of Flotilla's environment — tracker tokens, database URLs, webhooks, agent sockets — stays out.
 * The CLI's files go to a per-run directory.
 */
export function buildAgentEnv(input: AgentEnvInput): Record<string, string> {
  const env = pickAllowedEnv(input.baseEnv, [
    ...MODEL_ACCESS_VARIABLES,
    ...CLAUDE_SETTING_VARIABLES,
    ...(input.passThrough ?? []),
    ...(input.passEnv ?? []),
  ]);
  Object.assign(env, QUIET_TRAFFIC_VARIABLES, {
    CLAUDE_CONFIG_DIR: join(input.runStateDir, 'config'),
    CLAUDE_CODE_TMPDIR: join(input.runStateDir, 'tmp'),
  });
  if (input.isRoot) env.IS_SANDBOX = '1';
  Object.assign(env, input.extra ?? {});
  if (input.account !== undefined) applyAccount(env, input.account, input.baseEnv);
  return env;
}

function applyAccount(
  env: Record<string, string>,
  account: AgentEnvAccount,
  baseEnv: Readonly<Record<string, string | undefined>>,
): void {
  for (const name of [...account.allSources, ...ACCOUNT_CREDENTIAL_VARIABLES]) delete env[name];
  for (const [target, reference] of Object.entries(account.env)) {
    const source = parseVariableReference(reference);
    const value = source === null ? undefined : baseEnv[source];
    if (source === null || value === undefined || value === '') {
      // Without it the run would silently use no credential (or the wrong one): refuse to start it.
      throw new Error(
        `account '${account.name}': ${target} names ${source === null ? `'${reference}', not a variable` : `$${source}, which is not set`} in the environment of flotilla`,
      );
    }
    env[target] = value;
  }
}
