/** The public API each model key is for, when no base URL variable points elsewhere. */
const DEFAULT_ENDPOINTS: readonly { keys: readonly string[]; baseUrlVariable: string; url: string }[] = [
  {
    keys: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'],
    baseUrlVariable: 'ANTHROPIC_BASE_URL',
    url: 'https://api.anthropic.com',
  },
  {
    keys: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
    baseUrlVariable: 'OPENAI_BASE_URL',
    url: 'https://api.openai.com',
  },
  {
    keys: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    baseUrlVariable: 'GOOGLE_GEMINI_BASE_URL',
    url: 'https://generativelanguage.googleapis.com',
  },
];

/**
 * What an agent CLI's process must reach, read from the environment it is given: every `*_BASE_URL` it
 * holds, and the public API of each model key it holds whose base URL variable is unset. A run with no model
 * key and no base URL reaches nothing (`sandbox.network.allow` adds hosts).
 */
export function findModelEndpoints(env: Readonly<Record<string, string>>): string[] {
  const endpoints = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (name.endsWith('_BASE_URL') && /^https?:\/\//.test(value)) endpoints.add(value);
  }
  for (const endpoint of DEFAULT_ENDPOINTS) {
    if (endpoint.keys.some((key) => env[key] !== undefined) && env[endpoint.baseUrlVariable] === undefined)
      endpoints.add(endpoint.url);
  }
  return [...endpoints];
}
