import type { HookCallback, HookJSONOutput } from '@anthropic-ai/claude-agent-sdk';
import type { BashValidatorHook } from '../../guards/bash-validator/index.ts';
import type { PathGuardHook } from '../../guards/path-guard/index.ts';
import type { Logger } from '../../logging/logger.ts';
import { messageOf } from '../../shared/message-of.ts';

/** The SDK hook around a narrowed guard: never throws, never returns nothing — it fails closed. */
export function toSdkHook(
  hook: BashValidatorHook | PathGuardHook,
  logger: Logger,
  name = 'bash validator',
): HookCallback {
  return async (input): Promise<HookJSONOutput> => {
    if (input.hook_event_name !== 'PreToolUse') return {};
    try {
      const verdict = await hook({
        tool_name: input.tool_name,
        tool_input: (input.tool_input ?? {}) as Record<string, unknown>,
        cwd: input.cwd,
      });
      if (verdict && typeof verdict === 'object') return verdict;
      return { decision: 'block', reason: `Blocked: the ${name} gave no verdict` };
    } catch (error) {
      logger.error(`${name} hook threw; blocking the tool call`, { error: messageOf(error) });
      return { decision: 'block', reason: `Blocked: the ${name} failed (${messageOf(error)})` };
    }
  };
}
