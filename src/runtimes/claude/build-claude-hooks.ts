import type { HookCallback, HookCallbackMatcher, HookEvent } from '@anthropic-ai/claude-agent-sdk';

/** The CLI's own tool that carries the structured output: it touches no file and runs nothing. */
export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';

/**
 * Every tool name but the structured-output one. The CLI reads a matcher with characters other than word
 * characters and `|` as an unanchored JavaScript regular expression, so a tool added by a later CLI still
 * matches: only the one tool named here skips the hook.
 */
export const GUARDED_TOOLS_MATCHER = `^(?!${STRUCTURED_OUTPUT_TOOL}$)`;

export interface ClaudeHookParts {
  /** The bash validator, for Bash calls. */
  bashValidator: HookCallback;
  /** The file-path guard: checks the file tools and allows the rest. */
  pathGuard: HookCallback;
  /** The ask-a-human tool's name, and its hooks (see create-ask-human-tool.ts). */
  askHumanTool: string;
  refuseSubagentAsking: HookCallback;
  stopAfterAsking: HookCallback;
}

/** An empty answer allows the call; any other (a block, a denial) is the final word. */
const isVerdict = (output: object) => Object.keys(output).length > 0;

/**
 * The session's hooks: one PreToolUse callback for every tool call but the structured output, and one
 * PostToolUse callback for the ask-a-human tool.
 *
 * One callback rather than one per guard because each matching callback is a round trip between the CLI
 * and this process before the tool may run (bench/adapter-overhead: about a tenth of the runtime's overhead
 * on a one-step session, where the structured output is the only tool call). In it, a Bash call passes the
 * bash validator and then the path guard, an ask-a-human call is refused to subagents, and every other call
 * passes the path guard. A callback that throws blocks the call (`onFailure`).
 */
export function buildClaudeHooks(parts: ClaudeHookParts): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
  const guardToolCall: HookCallback = async (input, toolUseID, options) => {
    if (input.hook_event_name !== 'PreToolUse') return {};
    if (input.tool_name === parts.askHumanTool) return parts.refuseSubagentAsking(input, toolUseID, options);
    if (input.tool_name === 'Bash') {
      const verdict = await parts.bashValidator(input, toolUseID, options);
      if (isVerdict(verdict)) return verdict;
    }
    return parts.pathGuard(input, toolUseID, options);
  };
  return {
    PreToolUse: [{ matcher: GUARDED_TOOLS_MATCHER, hooks: [guardToolCall], onFailure: 'block' }],
    PostToolUse: [{ matcher: parts.askHumanTool, hooks: [parts.stopAfterAsking] }],
  };
}
