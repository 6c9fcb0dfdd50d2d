/**
 * The tools Flotilla's agent sessions are given: the SDK's built-in tools the roles' definitions use, the
 * CLI's structured-output tool and the ask-a-human MCP tool. Any other tool an agent session calls (an MCP
 * tool from a server it should not have, a tool a later CLI adds) is refused before it runs.
 */
export const AGENT_SESSION_TOOLS: readonly string[] = [
  'Bash',
  'BashOutput',
  'KillShell',
  'KillBash',
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'NotebookRead',
  'LS',
  'Glob',
  'Grep',
  'TodoWrite',
  'StructuredOutput',
  'mcp__flotilla__ask_human',
  // Flotilla's note tools (issue #28 §2): they record notes for the engine and touch no file.
  'mcp__flotilla__store_memory',
  'mcp__flotilla__record_decision',
  'mcp__flotilla__log_question',
  'mcp__flotilla__update_summary',
  // Questions between running agents (issue #28 §3): routed by the engine; they touch no file.
  'mcp__flotilla__ask_agent',
  'mcp__flotilla__answer_agent',
  'mcp__flotilla__check_messages',
];

/**
 * Claude Code's own tools, which the interactive hook lets through (file tools still pass the path guard,
 * Bash the validator). MCP tools and anything else are refused unless the user names them
 * (`flotilla hook pre-tool-use --allow-tool mcp__github__*`).
 */
export const INTERACTIVE_TOOLS: readonly string[] = [
  ...AGENT_SESSION_TOOLS.filter((tool) => !tool.startsWith('mcp__')),
  'Task',
  'Agent',
  'TaskOutput',
  'WebFetch',
  'WebSearch',
  'EnterPlanMode',
  'ExitPlanMode',
  'AskUserQuestion',
  'Skill',
  'SlashCommand',
];

/**
 * True when `toolName` is on `allowed`: exact names, or a prefix ending in `*` (`mcp__github__*`). Case
 * matters: tool names are matched exactly by the CLI.
 */
export function isToolAllowed(toolName: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) =>
    entry.endsWith('*') ? toolName.startsWith(entry.slice(0, -1)) : toolName === entry,
  );
}
