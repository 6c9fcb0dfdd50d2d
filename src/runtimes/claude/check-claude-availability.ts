import type { RuntimeAvailability } from '../../engine/runtime-contract/index.ts';
import { MODEL_ACCESS_VARIABLES } from '../../guards/agent-env/build-agent-env.ts';

/**
 * The Claude runtime's preflight: one model credential variable set (the SDK bundles its CLI, so there is
 * no binary to find). Credentials saved by `claude login` do not count: each agent runs with its own
 * CLAUDE_CONFIG_DIR. The same rule as `flotilla run`'s start-up check (app/find-model-credential.ts).
 */
export function checkClaudeAvailability(
  env: Readonly<Record<string, string | undefined>>,
): RuntimeAvailability {
  const found = [...MODEL_ACCESS_VARIABLES].some(
    (name) => name !== 'ANTHROPIC_BASE_URL' && (env[name] ?? '').trim() !== '',
  );
  if (found) return { available: true };
  return {
    available: false,
    problems: [
      'no model credentials: set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`) in the environment of `flotilla run`',
    ],
  };
}
