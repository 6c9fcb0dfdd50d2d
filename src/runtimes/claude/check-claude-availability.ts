import type { RuntimeAvailability } from '../../engine/runtime-contract/index.ts';
import { CLAUDE_CREDENTIAL_VARIABLES } from './claude-credentials.ts';

/**
 * The Claude runtime's preflight: the CLI binary the SDK bundles for this platform is installed (its
 * platform package is an optional dependency, which `--omit=optional` leaves out), and one model credential
 * variable is set. Credentials saved by `claude login` do not count: each agent runs with its own
 * CLAUDE_CONFIG_DIR. The same variables as `flotilla run`'s start-up check (claude-credentials.ts).
 */
export function checkClaudeAvailability(
  env: Readonly<Record<string, string | undefined>>,
  executable: string | null,
): RuntimeAvailability {
  const problems: string[] = [];
  if (executable === null) {
    problems.push(
      `no Claude Code binary for ${process.platform}-${process.arch}: reinstall @anthropic-ai/claude-agent-sdk with its optional dependencies (not --omit=optional)`,
    );
  }
  const found = CLAUDE_CREDENTIAL_VARIABLES.some((name) => (env[name] ?? '').trim() !== '');
  if (!found) {
    problems.push(
      'no model credentials: set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`) in the environment of `flotilla run`',
    );
  }
  return problems.length === 0 ? { available: true } : { available: false, problems };
}
