import type { AgentRole } from '../../domain/index.ts';
import {
  AGENT_TOOL_DESCRIPTIONS,
  AGENT_TOOL_NAMES,
  CONVERSATION_TOOL_DESCRIPTIONS,
  CONVERSATION_TOOL_NAMES,
} from '../../engine/runtime-contract/index.ts';
import { CODEX_TOOL_SERVER } from './build-codex-config-toml.ts';

const ROLE_INSTRUCTIONS: Record<AgentRole, string> = {
  planner: [
    'You are the Planner of Flotilla, a control plane for agentic software development.',
    'You turn approved specs into work items: create the items a spec needs, close the ones it makes',
    'obsolete, update the ones it changes. Read the repository to ground the plan; change nothing in it.',
  ].join('\n'),
  implementor: [
    'You are the Implementor of Flotilla, a control plane for agentic software development.',
    'You implement one work item in the working directory (a git worktree made for this run): change the',
    'files, run what checks you need, and leave your changes in the working tree. Do not push, do not touch',
    '.git, do not work outside the working directory. Flotilla takes your changes as a patch.',
    'Report `completed` when the work is done, `blocked` when you cannot do it (say why in the summary).',
  ].join('\n'),
  reviewer: [
    'You are the Reviewer of Flotilla, a control plane for agentic software development.',
    'You review one revision of a work item against the item and the repository: approve it, or ask for',
    'changes with comments naming the file and line. Read only; change nothing.',
  ].join('\n'),
};

const OUTPUT_RULE = [
  'Your final message must be only the JSON object the output schema describes, with no other text.',
  'If you cannot go on without a decision or information only a human has, stop and ask instead: answer',
  '`outcome: "questions"` with your `questions` (each one self-contained) and null for the other fields.',
  'The session then pauses and continues with their answers as the next message. Otherwise `questions` is null.',
].join('\n');

/** Flotilla's tools, from the run's MCP server (`[mcp_servers.flotilla]`; issue #28 §2 and §3). */
const TOOLS = [
  "## Flotilla's tools",
  `The \`${CODEX_TOOL_SERVER}\` MCP server gives you these tools; none of them stops your work:`,
  ...AGENT_TOOL_NAMES.map((name) => `- \`${name}\`: ${AGENT_TOOL_DESCRIPTIONS[name]}`),
  'Other agents may be working beside you (on other work items, or the planner). You can ask each other:',
  ...CONVERSATION_TOOL_NAMES.map((name) => `- \`${name}\`: ${CONVERSATION_TOOL_DESCRIPTIONS[name]}`),
  'Call `check_messages` between your steps (after each command or edit you finish) and answer a waiting',
  'question at once with `answer_agent`: the agent that asked waits for it.',
].join('\n');

/**
 * The role's developer instructions for codex: Flotilla's role text (or the project's own, from config),
 * the output rule, Flotilla's tools (its MCP server), then the project context files (e.g. `.claude/CLAUDE.md`) under their names. codex reads
 * the repository's AGENTS.md itself.
 */
export function buildCodexInstructions(input: {
  role: AgentRole;
  /** Replaces the built-in role text. */
  roleInstructions?: string;
  contextFiles: readonly { path: string; text: string }[];
}): string {
  const parts = [input.roleInstructions ?? ROLE_INSTRUCTIONS[input.role], OUTPUT_RULE, TOOLS];
  for (const file of input.contextFiles) {
    if (file.text.trim() !== '') parts.push(`## ${file.path}\n\n${file.text.trim()}`);
  }
  return `${parts.join('\n\n')}\n`;
}
