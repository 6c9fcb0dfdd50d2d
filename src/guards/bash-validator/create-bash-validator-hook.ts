import { messageOf } from '../../shared/message-of.ts';
import { getDefaultBashValidatorRules } from './get-default-bash-validator-rules.ts';
import type { BashValidatorRules } from './types.ts';
import { validateBashCommand } from './validate-bash-command.ts';

/** The part of the Claude Agent SDK's PreToolUse hook input the validator reads (plain types, no SDK import). */
export interface PreToolUseHookInput {
  tool_name: string;
  tool_input: Record<string, unknown>;
  /** The session's current directory as the SDK reports it (the path guard resolves relative paths with it). */
  cwd?: unknown;
}

export type PreToolUseHookOutput = { decision: 'block'; reason: string } | Record<string, never>;

export type BashValidatorHook = (input: PreToolUseHookInput) => Promise<PreToolUseHookOutput>;

const ALLOW: Record<string, never> = {};

/**
 * A PreToolUse hook callback for the Claude Agent SDK. It answers `{ decision: 'block', reason }` or `{}`
 * and never throws or returns undefined: the SDK treats both as a failed hook and RUNS the command
 * (claude-sdk-facts.md §Hooks), so every internal error becomes a block. Non-Bash tools are allowed.
 * A Bash call whose `command` is not a string is blocked (fail closed); an empty command is allowed.
 */
export function createBashValidatorHook(
  rules: BashValidatorRules = getDefaultBashValidatorRules(),
): BashValidatorHook {
  return async (input): Promise<PreToolUseHookOutput> => {
    try {
      if (input === null || typeof input !== 'object') {
        return { decision: 'block', reason: 'Blocked: malformed PreToolUse hook input' };
      }
      if (input.tool_name !== 'Bash') return ALLOW;
      const command: unknown = input.tool_input?.command;
      if (typeof command !== 'string') {
        return { decision: 'block', reason: 'Blocked: Bash tool input has no command string' };
      }
      const result = validateBashCommand(command, rules);
      return result.allowed ? ALLOW : { decision: 'block', reason: result.reason };
    } catch (error) {
      const detail = messageOf(error);
      return { decision: 'block', reason: `Blocked: internal validator error (${detail})` };
    }
  };
}
