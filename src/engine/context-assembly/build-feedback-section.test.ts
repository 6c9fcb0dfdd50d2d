import { describe, expect, it } from 'vitest';
import { buildRevisionFeedback } from '../../../test/support/shared/builders/index.ts';
import { buildFeedbackSection } from './build-feedback-section.ts';

describe('buildFeedbackSection', () => {
  it('is empty without feedback', () => {
    expect(buildFeedbackSection([])).toBe('');
  });

  it('gives each piece in full: kind, author, link, the diff hunk of a line comment, the text', () => {
    expect(
      buildFeedbackSection([
        buildRevisionFeedback({
          body: 'Two things.',
          url: 'https://github.com/a/b/pull/2#pullrequestreview-1',
        }),
        buildRevisionFeedback({
          id: 'line-2',
          kind: 'line-comment',
          state: null,
          author: 'mona',
          path: 'src/greet.js',
          line: 1,
          diffHunk: '@@ -0,0 +1 @@\n+export const greet = 1;',
          body: 'Trim the name.\n',
        }),
        buildRevisionFeedback({ id: 'comment-3', kind: 'comment', state: null, body: '' }),
      ]),
    ).toBe(
      [
        '### Feedback from people on this revision (address every point; your summary is posted as the answer)',
        '#### Review (changes requested) by octocat — https://github.com/a/b/pull/2#pullrequestreview-1',
        'Two things.',
        '#### Line comment on src/greet.js:1 by mona',
        '```\n@@ -0,0 +1 @@\n+export const greet = 1;\n```',
        'Trim the name.',
        '#### Comment by octocat',
        '(no text)',
      ].join('\n\n'),
    );
  });
});
