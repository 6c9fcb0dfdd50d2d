import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { FlotillaConfig } from '../config/index.ts';
import { AGENT_ROLES, type AgentRole } from '../domain/index.ts';

/**
 * Environment variables that let the Claude CLI reach a model, in the order they are reported. The Claude
 * adapter passes exactly these through to agents (build-agent-env.ts); `ANTHROPIC_BASE_URL` alone is not a
 * credential (a gateway still needs a key or token).
 */
const CREDENTIAL_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
] as const;

export type ModelCredentialCheck =
  | { ok: true; variable: (typeof CREDENTIAL_VARIABLES)[number] }
  | {
      ok: false;
      /** What to do, in one sentence per line. */
      advice: string[];
    };

/**
 * Whether agents whose runtime is `claude` can authenticate: one of CREDENTIAL_VARIABLES set and non-empty.
 * Credentials saved by `claude login` (`$CLAUDE_CONFIG_DIR` or `~/.claude`) do not count: every agent runs
 * with its own CLAUDE_CONFIG_DIR, so it never sees them — the advice says so when they exist. Values are never
 * read beyond "non-empty", and never returned.
 */
export function findModelCredential(
  env: Readonly<Record<string, string | undefined>>,
  home: string = homedir(),
): ModelCredentialCheck {
  const variable = CREDENTIAL_VARIABLES.find((name) => (env[name] ?? '').trim() !== '');
  if (variable !== undefined) return { ok: true, variable };
  const loginFile = join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), '.credentials.json');
  return {
    ok: false,
    advice: [
      'set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token` for a Claude subscription) in the environment of `flotilla run`',
      ...(existsSync(loginFile)
        ? [
            `the \`claude login\` credentials in ${loginFile} are not used: each agent runs with its own CLAUDE_CONFIG_DIR`,
          ]
        : []),
      "or do a dry run without a key: `flotilla init --scripted` (keeps your agent files and other settings), or set those roles to 'scripted' under `runtimes` in flotilla.config.json with a `scriptedScenario`",
    ],
  };
}

/**
 * The roles whose runtime is `claude`, i.e. that need a model credential from the environment — none when
 * `claude` accounts are configured: each run then gets its account's variables (doctor checks those).
 */
export function rolesNeedingCredentials(
  config: Pick<FlotillaConfig, 'runtimes'> & Partial<Pick<FlotillaConfig, 'accounts'>>,
): AgentRole[] {
  if (config.accounts?.some((account) => account.runtime === 'claude')) return [];
  return AGENT_ROLES.filter((role) => config.runtimes[role] === 'claude');
}
