import type { AgentRole, WorkItemMode } from '../../domain/index.ts';
import { buildModeOutputJsonSchema, buildOutputJsonSchema } from '../../engine/runtime-contract/index.ts';
import { buildAgentCommandInstructions } from '../shared/agent-command-channel.ts';
import { buildModeInstructions } from '../shared/build-mode-instructions.ts';
import { SIGNAL_FILE } from './read-agent-signal.ts';

/**
 * What a CLI agent is told about reporting back, appended to its prompt: the signal file, its three forms
 * and the JSON Schema its `result` must match (the same per-role schema the Claude runtime enforces).
 */
export function buildSignalInstructions(role: AgentRole, mode?: WorkItemMode): string {
  const schema = JSON.stringify(
    mode !== undefined ? buildModeOutputJsonSchema(mode) : buildOutputJsonSchema(role),
    null,
    2,
  );
  const commit =
    role === 'implementor' && mode === undefined
      ? 'Make your changes in this working directory (committing them is optional). '
      : 'Do not change any files besides the signal file. ';
  const what = mode ?? role;
  return [
    '## How to finish',
    '',
    `${commit}When you are done, write the file \`${SIGNAL_FILE}\` (relative to your working directory; ` +
      'create the `.flotilla` directory) with exactly one JSON object, then stop:',
    '',
    `- finished: \`{"status": "done", "result": <your ${what} result>}\``,
    '- you need answers from a human first: `{"status": "questions", "questions": ["…", "…"]}`',
    '- you cannot do the task: `{"status": "error", "error": "<why>"}`',
    '',
    `The \`result\` must match this JSON Schema (the ${what} result):`,
    '',
    '```json',
    schema,
    '```',
    '',
    `Writing \`${SIGNAL_FILE}\` is the only way your run counts as finished.`,
  ].join('\n');
}

/** The prompt with Flotilla's tools and the finishing instructions appended (the first round of a run). */
export function buildCliAgentPrompt(prompt: string, role: AgentRole, mode?: WorkItemMode): string {
  // A read-only mode (investigate, refine; issue #29) is told its task first.
  const task = mode !== undefined ? `\n\n## Your mode: ${mode}\n\n${buildModeInstructions(mode)}` : '';
  return `${prompt.trimEnd()}${task}\n\n${buildAgentCommandInstructions()}\n\n${buildSignalInstructions(role, mode)}\n`;
}

/**
 * The re-prompt after a round that ended without a valid signal (docs/runtime-spec.md §Lifecycle controller). A
 * resumed session only needs the reminder; a new session gets the task again as well.
 */
export function buildMissingSignalPrompt(input: {
  role: AgentRole;
  problem: string;
  resumed: boolean;
  originalPrompt: string;
  mode?: WorkItemMode | undefined;
}): string {
  const reminder = [
    `Your previous run ended without a valid \`${SIGNAL_FILE}\`: ${input.problem}.`,
    input.resumed
      ? 'Finish the task if it is not finished, then write the signal file as described below.'
      : 'Your working directory still holds what that run did. Check it, finish the task if it is not ' +
        'finished, then write the signal file as described below.',
  ].join('\n');
  if (input.resumed) return `${reminder}\n\n${buildSignalInstructions(input.role, input.mode)}\n`;
  return `${reminder}\n\n---\n\n${buildCliAgentPrompt(input.originalPrompt, input.role, input.mode)}`;
}
