export interface GeminiCommandInput {
  /** `node`, the interpreter that runs the bundle. */
  node: string;
  /** The bundle (`findGeminiBinary`). */
  binary: string;
  prompt: string;
  /** Absent: gemini-cli's own default. */
  model?: string | undefined;
  /** Planner and reviewer: `plan` (read-only tools); the implementor: `yolo` (every tool approved). */
  approvalMode: 'yolo' | 'plan';
  /** A session id to resume (`--resume`), for questions. */
  resume?: string | undefined;
}

/**
 * The argv of one non-interactive gemini-cli turn: `-p` (the prompt), `--output-format stream-json` (one
 * JSON event per line: `init`, `message`, `tool_use`, `tool_result`, `result`), the model and approval mode.
 */
export function buildGeminiCommand(input: GeminiCommandInput): string[] {
  return [
    input.node,
    input.binary,
    '--output-format',
    'stream-json',
    ...(input.model === undefined ? [] : ['--model', input.model]),
    '--approval-mode',
    input.approvalMode,
    ...(input.resume === undefined ? [] : ['--resume', input.resume]),
    '--prompt',
    input.prompt,
  ];
}
