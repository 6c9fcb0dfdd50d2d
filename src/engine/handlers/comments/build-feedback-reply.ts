import type { RevisionFeedback } from '../../../domain/index.ts';

/** The answer posted on humans' feedback: what the implementor did about it, and which files it changed. */
export function buildFeedbackReply(input: {
  revisionID: string;
  headSHA: string | null;
  summary: string;
  files: readonly string[];
}): string {
  const head = input.headSHA === null ? '' : ` (head \`${input.headSHA.slice(0, 12)}\`)`;
  const files =
    input.files.length === 0
      ? 'No files changed.'
      : `Changed: ${input.files.map((f) => `\`${f}\``).join(', ')}`;
  return `Flotilla's implementor reworked revision #${input.revisionID}${head} for this:\n\n${input.summary.trim()}\n\n${files}`;
}

/** The work item comment saying who sent it back from the tracker, and with how much feedback. */
export function buildSentBackComment(revisionID: string, feedback: readonly RevisionFeedback[]): string {
  const authors = [...new Set(feedback.map((entry) => entry.author))].join(', ');
  const count = feedback.length === 1 ? 'one comment' : `${feedback.length} comments`;
  return `${authors} asked for changes on revision #${revisionID} (${count}); an implementor reworks it with them and answers on each thread.`;
}
