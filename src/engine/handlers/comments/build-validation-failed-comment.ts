/** A comment is for reading: the adapter already bounds the errors; this caps what any runtime sends. */
const MAX_ERRORS_CHARS = 16 * 1024;

export interface ValidationFailedCommentInput {
  sessionID: string;
  /** The run's error: which validation commands failed and the tail of their output. */
  error: string;
  /** Transcript of the run (every round), when the runtime wrote one. */
  logFilePath: string | null;
}

/**
 * The comment left on a work item moved to needs-refinement because the implementor's work still failed the
 * validation commands after its last fix round. It holds the last errors, so a human can decide what to do.
 */
export function buildValidationFailedComment(input: ValidationFailedCommentInput): string {
  const errors =
    input.error.length > MAX_ERRORS_CHARS
      ? `… (truncated: the last ${MAX_ERRORS_CHARS} characters)\n${input.error.slice(-MAX_ERRORS_CHARS)}`
      : input.error;
  const fence = buildFence(errors);
  const lines = [
    'Flotilla: the implementor reported its work complete, but the validation commands still fail after ' +
      'its last fix round, so this item needs refinement and will not be retried automatically.',
    '',
    `- Session: ${input.sessionID}`,
  ];
  if (input.logFilePath !== null) lines.push(`- Log: ${input.logFilePath}`);
  lines.push(
    '',
    'Last errors:',
    '',
    `${fence}text`,
    errors,
    fence,
    '',
    'Refine the item (or fix the cause), then dispatch the implementor again or move the item back to pending.',
  );
  return lines.join('\n');
}

/** A code fence longer than any run of backticks in the text, so the text cannot close it early. */
function buildFence(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}
