import type { Pipeline } from '../../../domain/index.ts';

export interface ChecksFailedCommentInput {
  revisionID: string;
  pipeline: Pipeline;
  /** This failure's number since the item was last approved or reset by a human (1 = the first). */
  round: number;
  maxCheckRounds: number;
}

/**
 * The comment left when a revision's checks fail: sent back to the implementor (rounds within the cap), or
 * parked as needs-refinement for a human, with the failing command and the end of its output.
 */
export function buildChecksFailedComment(input: ChecksFailedCommentInput): string {
  const { revisionID, pipeline, round, maxCheckRounds } = input;
  const parked = round > maxCheckRounds;
  const lines = parked
    ? [
        `Flotilla: the checks of revision #${revisionID} failed again after ${maxCheckRounds} automatic ` +
          `rework round${maxCheckRounds === 1 ? '' : 's'} (maxCheckRounds ${maxCheckRounds}), so this item ` +
          'now needs a human.',
      ]
    : [
        `Flotilla: the checks of revision #${revisionID} failed; sent back to the implementor with the ` +
          `checks output (rework round ${round} of ${maxCheckRounds}).`,
      ];
  lines.push('', '- Failure:', '', '```', pipeline.reason ?? 'checks failed (no reason given)', '```');
  if (pipeline.url !== null) lines.push('', `- Log: ${pipeline.url}`);
  if (parked) {
    lines.push(
      '',
      'Fix the cause (or the checks command), then dispatch the implementor again or move the item back to pending; either gives it a fresh set of rounds.',
    );
  }
  return lines.join('\n');
}
