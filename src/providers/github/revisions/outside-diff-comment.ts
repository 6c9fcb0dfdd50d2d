import type { AgentReview } from '../../../domain/index.ts';

const OUTSIDE_DIFF = /<!-- flotilla:outside-diff ([A-Za-z0-9+/=]+) -->/;

/** Review comments GitHub would not place on the diff: readable, plus the exact list, hidden, to read back. */
export function buildOutsideDiffComment(comments: AgentReview['comments']): string {
  const lines = comments.map(
    (comment) => `- \`${comment.path}${comment.line === null ? '' : `:${comment.line}`}\`: ${comment.body}`,
  );
  const exact = Buffer.from(JSON.stringify(comments)).toString('base64');
  return `Review comments outside this pull request's diff:\n\n${lines.join('\n')}\n\n<!-- flotilla:outside-diff ${exact} -->`;
}

export function parseOutsideDiffComment(body: string): { path: string; line: number | null; body: string }[] {
  const encoded = OUTSIDE_DIFF.exec(body)?.[1];
  if (encoded === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((entry: unknown) => {
      if (typeof entry !== 'object' || entry === null) return [];
      const { path, line, body: text } = entry as Record<string, unknown>;
      if (typeof path !== 'string' || typeof text !== 'string') return [];
      return [{ path, line: typeof line === 'number' ? line : null, body: text }];
    });
  } catch {
    return []; // edited by hand into something else: not ours any more
  }
}
