import { type AgentRole, CREDENTIALS_FAILURE_PREFIX } from '../../domain/index.ts';

/** What the Claude CLI says when it has no usable credentials ("Not logged in · Please run /login", …). */
const CLI_AUTHENTICATION_ERRORS = /Not logged in|Invalid API key|OAuth token has expired/i;

/**
 * The run error for a session the CLI refused for lack of credentials — prefixed so the engine does not
 * retry it, and saying what to set — or null when `message` is about something else.
 */
export function classifyCredentialsFailure(role: AgentRole, message: string): string | null {
  const match = CLI_AUTHENTICATION_ERRORS.exec(message);
  if (match === null) return null;
  return (
    `${CREDENTIALS_FAILURE_PREFIX} the ${role} could not authenticate with the model API (${message}). ` +
    'Set ANTHROPIC_API_KEY (or CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`) for `flotilla run`, or use ' +
    "runtime 'scripted' for a dry run; `flotilla doctor` checks it. Not retried: every attempt would fail alike."
  );
}
