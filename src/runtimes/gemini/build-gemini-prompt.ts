import type { AgentRole, WorkItemMode } from '../../domain/index.ts';
import {
  buildModeOutputOrQuestionsJsonSchema,
  buildOutputOrQuestionsJsonSchema,
} from '../../engine/runtime-contract/index.ts';
import { buildAgentCommandInstructions } from '../shared/agent-command-channel.ts';
import { buildModeInstructions } from '../shared/build-mode-instructions.ts';

const ROLE_TEXT: Record<AgentRole, string> = {
  planner:
    'You are the Planner of Flotilla. Turn the approved specs into work items; read the repository to ground the plan and change nothing in it.',
  implementor:
    'You are the Implementor of Flotilla. Implement the work item in your working directory (a git worktree made for this run): change the files and run the checks you need. Do not push and do not work outside the working directory; Flotilla takes your changes as a patch. Report `completed` when done, `blocked` when you cannot do it (say why in the summary).',
  reviewer:
    'You are the Reviewer of Flotilla. Review the revision against the work item and the repository: approve it, or ask for changes with comments naming the file and line. Read only; change nothing.',
};

/**
 * The first message of a gemini run: the engine's prompt as it is, then Flotilla's fixed instructions — the
 * role, the project context files, and the rule that the final message is only the JSON object of the role's
 * schema (or `outcome: "questions"` for a human's answers). gemini-cli has no structured output: the final
 * message is parsed and validated like any agent output.
 */
export function buildGeminiPrompt(input: {
  prompt: string;
  role: AgentRole;
  /** A read-only mode (investigate, refine; issue #29): its task and report schema instead of the role's. */
  mode?: WorkItemMode | undefined;
  contextFiles: readonly { path: string; text: string }[];
}): string {
  const { mode } = input;
  const schema = JSON.stringify(
    mode !== undefined
      ? buildModeOutputOrQuestionsJsonSchema(mode)
      : buildOutputOrQuestionsJsonSchema(input.role),
  );
  const context = input.contextFiles
    .filter((file) => file.text.trim() !== '')
    .map((file) => `### ${file.path}\n\n${file.text.trim()}`);
  return [
    input.prompt.trimEnd(),
    '## How you work and finish (Flotilla)',
    mode !== undefined ? buildModeInstructions(mode) : ROLE_TEXT[input.role],
    buildAgentCommandInstructions(),
    ...context,
    'Your final message must be only one JSON object matching this JSON Schema, with no other text and no code fence:',
    schema,
    'If you cannot go on without a decision or information only a human has, answer `{"role": ..., "outcome": "questions", "questions": [...]}` instead: the session pauses and continues with their answers as the next message.',
  ].join('\n\n');
}

/**
 * The final message as JSON: the whole text, or the one fenced block it is wrapped in. null when it is not
 * JSON (the caller quotes it in the failure).
 */
export function parseFinalMessage(text: string): unknown {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(trimmed);
  try {
    return JSON.parse(fenced?.[1] ?? trimmed);
  } catch {
    return null;
  }
}
