export interface NoChangesCommentInput {
  sessionID: string;
  /** The run's error, as the runtime worded it. */
  error: string;
  /** Transcript of the run, when the runtime wrote one. */
  logFilePath: string | null;
}

/**
 * The comment left on a work item moved to needs-refinement because its implementor reported the work
 * complete without changing anything (issue #28 §6): the item is probably done already, or unclear.
 */
export function buildNoChangesComment(input: NoChangesCommentInput): string {
  const lines = [
    'Flotilla: the implementor reported its work complete but changed nothing (an empty patch), so this item ' +
      'needs refinement and will not be retried automatically.',
    '',
    `- Session: ${input.sessionID}`,
  ];
  if (input.logFilePath !== null) lines.push(`- Log: ${input.logFilePath}`);
  lines.push(
    `- Runtime said: ${input.error.split('\n')[0] ?? ''}`,
    '',
    'If the work is already done, close the item; otherwise say more precisely what should change, then ' +
      'dispatch the implementor again or move the item back to pending.',
  );
  return lines.join('\n');
}
