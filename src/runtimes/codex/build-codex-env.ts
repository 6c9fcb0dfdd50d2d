import { pickAllowedEnv } from '../../guards/agent-env/build-agent-env.ts';

/** The variables codex's built-in OpenAI provider reads its key from. */
export const OPENAI_KEY_VARIABLES = ['CODEX_API_KEY', 'OPENAI_API_KEY'] as const;

/** codex's own endpoint setting for its built-in OpenAI provider (not a secret). */
const CODEX_ENDPOINT_VARIABLES = ['OPENAI_BASE_URL'];

export interface CodexEnvInput {
  /** The environment to start from (normally process.env). */
  baseEnv: Readonly<Record<string, string | undefined>>;
  /** The run's CODEX_HOME. */
  codexHome: string;
  /** Variables holding the model key: kept for codex itself (its commands never see them, see config). */
  modelKeyVariables: readonly string[];
  /** Variables codex may see besides the base ones (config `passThroughEnv`). */
  passThrough?: readonly string[];
  /** Variables codex may see besides the base ones (config `sandbox.passEnv`); added to `passThrough`. */
  passEnv?: readonly string[];
  /** Applied last (tests: a proxy tripwire). */
  extra?: Readonly<Record<string, string>>;
}

/**
 * The codex process's environment (`new Codex({ env })` replaces the child's), an allow-list: the base
 * variables every agent gets (guards/agent-env), the model key and endpoint, and what the user passes
 * (`passThrough`, `passEnv`). Every other variable — other credentials, database URLs, the `CODEX_*`
 * switches of the user's own codex — stays out; `CODEX_HOME` is the run's, and 127.0.0.1 is kept off any
 * proxy (a local model server).
 */
export function buildCodexEnv(input: CodexEnvInput): Record<string, string> {
  const env = pickAllowedEnv(input.baseEnv, [
    ...input.modelKeyVariables,
    ...CODEX_ENDPOINT_VARIABLES,
    ...(input.passThrough ?? []),
    ...(input.passEnv ?? []),
  ]);
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
