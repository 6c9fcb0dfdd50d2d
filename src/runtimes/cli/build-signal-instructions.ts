import type { AgentRole } from '../../domain/index.ts';
import { buildOutputJsonSchema } from '../../engine/runtime-contract/index.ts';
import { buildAgentCommandInstructions } from '../shared/agent-command-channel.ts';
import { SIGNAL_FILE } from './read-agent-signal.ts';

/**
 * What a CLI agent is told about reporting back, appended to its prompt: the signal file, its three forms
 * and the JSON Schema its `result` must match (the same per-role schema the Claude runtime enforces).
 */
export function buildSignalInstructions(role: AgentRole): string {
  const schema = JSON.stringify(buildOutputJsonSchema(role), null, 2);
  const commit =
    role === 'implementor'
      ? 'Make your changes in this working directory (committing them is optional). '
      : 'Do not change any files besides the signal file. ';
  return [
    '## How to finish',
    '',
    `${commit}When you are done, write the file \`${SIGNAL_FILE}\` (relative to your working directory; ` +
      'create the `.flotilla` directory) with exactly one JSON object, then stop:',
    '',
    `- finished: \`{"status": "done", "result": <your ${role} result>}\``,
    '- you need answers from a human first: `{"status": "questions", "questions": ["…", "…"]}`',
    '- you cannot do the task: `{"status": "error", "error": "<why>"}`',
    '',
    `The \`result\` must match this JSON Schema (the ${role} result):`,
    '',
    '```json',
    schema,
    '```',
    '',
    `Writing \`${SIGNAL_FILE}\` is the only way your run counts as finished.`,
  ].join('\n');
}

/** The prompt with Flotilla's tools and the finishing instructions appended (the first round of a run). */
export function buildCliAgentPrompt(prompt: string, role: AgentRole): string {
  return `${prompt.trimEnd()}\n\n${buildAgentCommandInstructions()}\n\n${buildSignalInstructions(role)}\n`;
}

/**
 * The re-prompt after a round that ended without a valid signal (docs/seeds.md §Lifecycle controller). A
 * resumed session only needs the reminder; a new session gets the task again as well.
 */
export function buildMissingSignalPrompt(input: {
  role: AgentRole;
  problem: string;
  resumed: boolean;
  originalPrompt: string;
}): string {
  const reminder = [
    `Your previous run ended without a valid \`${SIGNAL_FILE}\`: ${input.problem}.`,
    input.resumed
      ? 'Finish the task if it is not finished, then write the signal file as described below.'
      : 'Your working directory still holds what that run did. Check it, finish the task if it is not ' +
        'finished, then write the signal file as described below.',
  ].join('\n');
  if (input.resumed) return `${reminder}\n\n${buildSignalInstructions(input.role)}\n`;
  return `${reminder}\n\n---\n\n${buildCliAgentPrompt(input.originalPrompt, input.role)}`;
}
