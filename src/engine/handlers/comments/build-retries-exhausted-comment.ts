import type { AgentRole } from '../../../domain/index.ts';
import type { FailureRecord } from '../../state-store/engine-state.ts';

export interface RetriesExhaustedCommentInput {
  role: Exclude<AgentRole, 'planner'>;
  failure: FailureRecord;
  maxAttempts: number;
  /** The failure would repeat on every retry (isPermanentFailure): blocked at once, attempts left or not. */
  permanent?: boolean;
  /** Transcript of the last failed run, when the runtime wrote one. */
  logFilePath: string | null;
}

/** The comment left on a work item parked as blocked after its last allowed attempt failed. */
export function buildRetriesExhaustedComment(input: RetriesExhaustedCommentInput): string {
  const { role, failure, maxAttempts, logFilePath } = input;
  const lines = [
    input.permanent === true
      ? `Flotilla: the ${role} failed in a way every retry would repeat, so this item is blocked at once ` +
        '(no back-off retries) and will not be retried automatically.'
      : `Flotilla: the ${role} failed ${failure.attempts} time${failure.attempts === 1 ? '' : 's'} in a row ` +
        `(limit ${maxAttempts}), so this item is now blocked and will not be retried automatically.`,
    '',
    `- Last failure: ${failure.lastReason === 'timeout' ? 'timed out' : 'error'}`,
    `- Error: ${failure.lastError}`,
    `- Session: ${failure.lastSessionID}`,
  ];
  if (logFilePath !== null) lines.push(`- Log: ${logFilePath}`);
  lines.push(
    '',
    `Fix the cause, then dispatch the ${role} again or move the item back to pending; either gives it a fresh set of attempts.`,
  );
  return lines.join('\n');
}
