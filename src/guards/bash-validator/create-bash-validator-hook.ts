import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { messageOf } from '../../shared/message-of.ts';
import { findCheckoutPaths } from '../path-guard/find-checkout-paths.ts';
import { getDefaultBashValidatorRules } from './get-default-bash-validator-rules.ts';
import type { BashValidatorRules } from './types.ts';
import { type BashPlaceInput, validateBashCommand } from './validate-bash-command.ts';

/** The part of the Claude Agent SDK's PreToolUse hook input the validator reads (plain types, no SDK import). */
export interface PreToolUseHookInput {
  tool_name: string;
  tool_input: Record<string, unknown>;
  /** The session's current directory as the SDK reports it (the path guard resolves relative paths with it). */
  cwd?: unknown;
}

export type PreToolUseHookOutput = { decision: 'block'; reason: string } | Record<string, never>;

export type BashValidatorHook = (input: PreToolUseHookInput) => Promise<PreToolUseHookOutput>;

/**
 * Where the hook's sessions may write. Unset fields come from the hook input's `cwd`: the git working tree
 * holding it; denied are Flotilla's `.flotilla/` and `.worktrees/` of its repository's main checkout, and
 * the main checkout itself when the working tree is a linked worktree.
 */
export interface BashValidatorHookOptions {
  root?: string;
  deniedPaths?: readonly string[];
}

/** The place a call runs in, from its `cwd`; null without one (the rules then judge text only). Throws when cwd is gone. */
function placeOf(cwd: unknown, options: BashValidatorHookOptions): BashPlaceInput | null {
  if (cwd === undefined) return null;
  if (typeof cwd !== 'string' || !isAbsolute(cwd))
    throw new Error(`the hook input's cwd is not an absolute path`);
  const checkout =
    options.root === undefined || options.deniedPaths === undefined ? findCheckoutPaths(cwd) : null;
  return {
    cwd: realpathSync(cwd),
    root: realpathSync(options.root ?? checkout!.workTree),
    // From a linked worktree, the main checkout is someone else's too (the user's): denied around the root.
    deniedPaths: options.deniedPaths ?? [
      ...checkout!.deniedPaths,
      ...(checkout!.mainCheckout !== null && checkout!.mainCheckout !== checkout!.workTree
        ? [checkout!.mainCheckout]
        : []),
    ],
  };
}

const ALLOW: Record<string, never> = {};

/**
 * A PreToolUse hook callback for the Claude Agent SDK. It answers `{ decision: 'block', reason }` or `{}`
 * and never throws or returns undefined: the SDK treats both as a failed hook and RUNS the command
 * (docs/claude-sdk-facts.md §Hooks), so every internal error becomes a block. Non-Bash tools are allowed.
 * A Bash call whose `command` is not a string is blocked (fail closed); an empty command is allowed.
 * With the input's `cwd`, the paths a command writes are followed through symlinks and must stay in the
 * working tree (see judge-real-path.ts); a cwd that cannot be resolved blocks.
 */
export function createBashValidatorHook(
  rules: BashValidatorRules = getDefaultBashValidatorRules(),
  options: BashValidatorHookOptions = {},
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
      const result = validateBashCommand(command, rules, placeOf(input.cwd, options));
      return result.allowed ? ALLOW : { decision: 'block', reason: result.reason };
    } catch (error) {
      const detail = messageOf(error);
      return { decision: 'block', reason: `Blocked: internal validator error (${detail})` };
    }
  };
}
