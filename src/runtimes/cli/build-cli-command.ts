import type { CliPreset } from './cli-presets.ts';

export interface BuildCliCommandInput {
  preset: CliPreset;
  prompt: string;
  /**
   * Start: the id to assign (used when the preset takes `{sessionId}` in `start`). Resume: the session to
   * continue; the preset must have a `resume` template.
   */
  sessionId: string | null;
  resume: boolean;
  /** Where the prompt file goes when the template has `{promptFile}` (outside the worktree). */
  promptFilePath: string;
  /** Replaces the template's program (argv[0]) with these words, e.g. a wrapper or an absolute path. */
  program?: readonly string[];
}

export interface CliCommand {
  file: string;
  args: string[];
  /** Written to stdin, then closed; null: stdin is closed at once. */
  stdin: string | null;
  /** To be written before the command runs. */
  promptFile: { path: string; content: string } | null;
}

/**
 * Linux refuses one argument longer than this (MAX_ARG_STRLEN: 32 pages) with E2BIG; a long prompt must
 * go through stdin or a file.
 */
export const MAX_ARGUMENT_BYTES = 128 * 1024;

/**
 * The argv, stdin and prompt file for one run of a preset (pure). Throws with a clear message when the
 * preset cannot do what is asked (resume without a template, a prompt too long for an argument).
 */
export function buildCliCommand(input: BuildCliCommandInput): CliCommand {
  const { preset, prompt } = input;
  const template = input.resume ? preset.resume : preset.start;
  if (template === null) throw new Error('this CLI preset cannot resume a session');
  const usesSessionId = template.some((arg) => arg.includes('{sessionId}'));
  if (usesSessionId && (input.sessionId === null || input.sessionId === '')) {
    throw new Error(`the CLI command needs a session id (${template.join(' ')})`);
  }
  const usesPromptArgument = template.some((arg) => arg.includes('{prompt}'));
  const usesPromptFile = template.some((arg) => arg.includes('{promptFile}'));
  const args = template.map((arg) =>
    arg.replace(/\{(prompt|promptFile|sessionId)\}/g, (_match, name: string) =>
      name === 'prompt' ? prompt : name === 'promptFile' ? input.promptFilePath : (input.sessionId ?? ''),
    ),
  );
  for (const arg of args) {
    const bytes = Buffer.byteLength(arg, 'utf8');
    if (bytes > MAX_ARGUMENT_BYTES) {
      throw new Error(
        `the prompt is ${bytes} bytes, more than one command-line argument can hold (${MAX_ARGUMENT_BYTES}); ` +
          'use a preset that passes it on stdin or in a file',
      );
    }
  }
  const [file, ...rest] = [...(input.program ?? args.slice(0, 1)), ...args.slice(1)];
  if (file === undefined || file === '') throw new Error('the CLI command has no program');
  return {
    file,
    args: rest,
    stdin: usesPromptArgument || usesPromptFile ? null : prompt,
    promptFile: usesPromptFile ? { path: input.promptFilePath, content: prompt } : null,
  };
}
