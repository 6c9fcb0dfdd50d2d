import { pickAllowedEnv } from '../../guards/agent-env/build-agent-env.ts';

/** The variables gemini-cli reads a Gemini API key from. */
export const GEMINI_KEY_VARIABLES: readonly string[] = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'];
/** Where gemini-cli sends its model requests instead of the public Gemini API. */
export const GEMINI_BASE_URL_VARIABLE = 'GOOGLE_GEMINI_BASE_URL';

export interface GeminiEnvInput {
  /** The environment to start from (normally process.env). */
  baseEnv: Readonly<Record<string, string | undefined>>;
  /** The run's own home: gemini-cli keeps its settings, sessions and history in `<home>/.gemini`. */
  home: string;
  /** Variables the agent may see besides the allow-list (config `sandbox.passEnv`). */
  passEnv?: readonly string[];
  /** Applied last (the worktree's ports, tests' tripwires). */
  extra?: Readonly<Record<string, string>>;
}

/**
 * gemini-cli's environment: the agents' base allow-list (guards/agent-env/), its key and endpoint, what the
 * user passes, and a HOME of the run's own so nothing it writes lands in the user's `~/.gemini`. It runs
 * headless in one process (`GEMINI_CLI_NO_RELAUNCH`) in a worktree it may trust (`GEMINI_CLI_TRUST_WORKSPACE`:
 * untrusted, `yolo` falls back to asking, which blocks a headless run). No other Anthropic, OpenAI or tracker
 * variable reaches it.
 */
export function buildGeminiEnv(input: GeminiEnvInput): Record<string, string> {
  const env = pickAllowedEnv(input.baseEnv, [
    ...GEMINI_KEY_VARIABLES,
    GEMINI_BASE_URL_VARIABLE,
    ...(input.passEnv ?? []),
  ]);
  Object.assign(env, {
    HOME: input.home,
    GEMINI_CLI_HOME: input.home,
    GEMINI_CLI_NO_RELAUNCH: 'true',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    NO_COLOR: '1',
  });
  Object.assign(env, input.extra ?? {});
  return env;
}

/** The validation commands' environment: the agent's without its model key. */
export function buildGeminiValidationEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const rest = { ...env };
  for (const name of GEMINI_KEY_VARIABLES) delete rest[name];
  return rest;
}
