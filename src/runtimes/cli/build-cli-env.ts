import { buildAgentEnv, MODEL_ACCESS_VARIABLES } from '../../guards/agent-env/build-agent-env.ts';

export interface CliEnvInput {
  /** The environment to start from (normally process.env). */
  baseEnv: Readonly<Record<string, string | undefined>>;
  /** The run's state directory (the claude preset's config and temp files go there). */
  runStateDir: string;
  isRoot: boolean;
  /** The preset's model credential and endpoint variables. */
  credentialEnv: readonly string[];
  /** Variables the agent may see besides the base ones (config `passThroughEnv`). */
  passThrough?: readonly string[];
  /** Variables the agent may see besides the base ones (config `sandbox.passEnv`). */
  passEnv?: readonly string[];
  /** Applied last. */
  extra?: Readonly<Record<string, string>>;
}

/**
 * An agent CLI's environment: the allow-list of buildAgentEnv (base variables, what the user passes), with
 * the preset's own model credentials instead of Claude's — a CLI that is not claude gets no Anthropic key.
 */
export function buildCliEnv(input: CliEnvInput): Record<string, string> {
  const allowed = new Set([...input.credentialEnv, ...(input.passThrough ?? []), ...(input.passEnv ?? [])]);
  const env = buildAgentEnv({
    baseEnv: input.baseEnv,
    runStateDir: input.runStateDir,
    isRoot: input.isRoot,
    passThrough: [...allowed],
    ...(input.extra !== undefined && { extra: input.extra }),
  });
  for (const name of MODEL_ACCESS_VARIABLES) {
    if (!allowed.has(name) && !(input.extra && name in input.extra)) delete env[name];
  }
  return env;
}
