import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeCredentials } from '../shared/runtime-descriptor.ts';

/**
 * Environment variables that let the Claude CLI reach a model, in the order they are reported. The agent
 * environment passes exactly these through (guards/agent-env/build-agent-env.ts, MODEL_ACCESS_VARIABLES);
 * `ANTHROPIC_BASE_URL` alone is not a credential (a gateway still needs a key or token).
 */
export const CLAUDE_CREDENTIAL_VARIABLES: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
];

/**
 * The Claude runtime's model credential. Credentials saved by `claude login` (`$CLAUDE_CONFIG_DIR` or
 * `~/.claude`) do not count: every agent runs with its own CLAUDE_CONFIG_DIR, so it never sees them — the
 * advice says so when they exist.
 */
export const claudeCredentials: RuntimeCredentials = {
  label: 'Claude',
  variables: CLAUDE_CREDENTIAL_VARIABLES,
  advice({ env, home }) {
    const loginFile = join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), '.credentials.json');
    return [
      'set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token` for a Claude subscription) in the environment of `flotilla run`',
      ...(existsSync(loginFile)
        ? [
            `the \`claude login\` credentials in ${loginFile} are not used: each agent runs with its own CLAUDE_CONFIG_DIR`,
          ]
        : []),
    ];
  },
};
