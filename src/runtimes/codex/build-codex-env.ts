/** The variables codex's built-in OpenAI provider reads its key from. */
export const OPENAI_KEY_VARIABLES = ['CODEX_API_KEY', 'OPENAI_API_KEY'] as const;

/** Names that look like credentials (tracker tokens, cloud keys, passwords) or steer another agent CLI. */
const SECRET_NAME =
  /(TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE_KEY|CREDENTIALS?|API_KEY|ACCESS_KEY|SESSION_KEY)$|^(AWS|GH|GITHUB|GITLAB|NPM|FLOTILLA|ANTHROPIC|OPENAI|AZURE_OPENAI|CODEX|CLAUDE_CODE)_/i;

export interface CodexEnvInput {
  /** The environment to start from (normally process.env). */
  baseEnv: Readonly<Record<string, string | undefined>>;
  /** The run's CODEX_HOME. */
  codexHome: string;
  /** Variables holding the model key: kept for codex itself (its commands never see them, see config). */
  modelKeyVariables: readonly string[];
  /** Secret-looking variables codex may see anyway (config `passThroughEnv`). */
  passThrough?: readonly string[];
  /** Applied last (tests: a proxy tripwire). */
  extra?: Readonly<Record<string, string>>;
}

/**
 * The codex process's environment (`new Codex({ env })` replaces the child's): credentials removed except
 * the model key, `CODEX_*` switches of the user's own codex dropped, `CODEX_HOME` the run's, and 127.0.0.1
 * kept off any proxy (a local model server).
 */
export function buildCodexEnv(input: CodexEnvInput): Record<string, string> {
  const keep = new Set([...input.modelKeyVariables, ...(input.passThrough ?? [])]);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.baseEnv)) {
    if (value === undefined) continue;
    if (!keep.has(name) && SECRET_NAME.test(name)) continue;
    env[name] = value;
  }
  const noProxy = [env.NO_PROXY ?? env.no_proxy, '127.0.0.1', 'localhost']
    .filter((part) => part !== undefined && part !== '')
    .join(',');
  Object.assign(env, { CODEX_HOME: input.codexHome, NO_PROXY: noProxy, no_proxy: noProxy });
  Object.assign(env, input.extra ?? {});
  return env;
}

/**
 * The validation commands' environment: codex's without the model key and CODEX_HOME — the commands run
 * code the agent wrote, which is untrusted.
 */
export function buildCodexValidationEnv(
  codexEnv: Readonly<Record<string, string>>,
  modelKeyVariables: readonly string[],
): Record<string, string> {
  const env = { ...codexEnv };
  for (const name of [...modelKeyVariables, 'CODEX_HOME']) delete env[name];
  return env;
}
