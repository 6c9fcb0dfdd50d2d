/** The model credentials the agent's CLI needs and the code it wrote does not. */
const MODEL_CREDENTIALS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'];

/**
 * The validation commands' environment: the agent's (tracker credentials and other secrets already removed)
 * without the model credentials — the commands run code the agent wrote, which is untrusted.
 */
export function buildValidationEnv(agentEnv: Readonly<Record<string, string>>): Record<string, string> {
  const env = { ...agentEnv };
  for (const name of MODEL_CREDENTIALS) delete env[name];
  return env;
}
