import type { RevisionFeedback } from '../../domain/index.ts';
import { codeBlock, withoutTrailingNewlines } from './markdown-text.ts';

const STATES: Record<NonNullable<RevisionFeedback['state']>, string> = {
  APPROVED: 'approved',
  CHANGES_REQUESTED: 'changes requested',
  COMMENTED: 'commented',
};

/**
 * The humans' feedback an implementor run is given (issue #26), in full: who, what kind, where (path, line
 * and the diff hunk for line comments) and the text. Empty when there is none.
 */
export function buildFeedbackSection(feedback: readonly RevisionFeedback[]): string {
  if (feedback.length === 0) return '';
  const sections = [
    '### Feedback from people on this revision (address every point; your summary is posted as the answer)',
  ];
  for (const entry of feedback) {
    const kind =
      entry.kind === 'review'
        ? `Review (${entry.state === null ? 'review' : STATES[entry.state]})`
        : entry.kind === 'line-comment'
          ? `Line comment on ${entry.path ?? '?'}${entry.line === null ? '' : `:${entry.line}`}`
          : 'Comment';
    const parts = [`#### ${kind} by ${entry.author}${entry.url === null ? '' : ` — ${entry.url}`}`];
    if (entry.diffHunk !== null && entry.diffHunk !== '') parts.push(codeBlock(entry.diffHunk));
    parts.push(withoutTrailingNewlines(entry.body) || '(no text)');
    sections.push(parts.join('\n\n'));
  }
  return sections.join('\n\n');
}
