import { describe, expect, it } from 'vitest';
import { buildDiffLines } from '../../src/tui/view-model/build-diff-lines.ts';
import { buildDiffAnchors } from './build-diff-anchors.ts';

const files = [
  {
    path: 'src/greet.js',
    status: 'modified',
    patch: [
      'diff --git a/src/greet.js b/src/greet.js',
      '--- a/src/greet.js',
      '+++ b/src/greet.js',
      '@@ -1,3 +1,3 @@',
      ' // greet',
      '-export const greet = (name) => name;',
      '+export const greet = (name) => name.trim();',
      '++plus plus at the start of an added line',
      '@@ -10,2 +11,2 @@ export {};',
      ' context',
      '\\ No newline at end of file',
      '',
    ].join('\n'),
  },
  { path: 'logo.png', status: 'added', patch: null },
  { path: 'src/new.js', status: 'added', patch: '@@ -0,0 +1,2 @@\n+one\n+two\n' },
] as const;

describe('buildDiffAnchors', () => {
  it("aligns with the server's diff lines: each added or context line has its new-version line", () => {
    const lines = buildDiffLines(files.map((file) => ({ ...file })));
    const anchors = buildDiffAnchors(files);
    expect(anchors).toHaveLength(lines.length);
    const anchored = lines.flatMap((line, index) => {
      const anchor = anchors[index];
      return anchor === null || anchor === undefined ? [] : [`${anchor.path}:${anchor.line} ${line.text}`];
    });
    expect(anchored).toEqual([
      'src/greet.js:1  // greet',
      'src/greet.js:2 +export const greet = (name) => name.trim();',
      'src/greet.js:3 ++plus plus at the start of an added line',
      'src/greet.js:11  context',
      'src/new.js:1 +one',
      'src/new.js:2 +two',
    ]);
  });

  it('has one null line for a revision without files, as the server\'s "no changed files"', () => {
    expect(buildDiffAnchors([])).toEqual([null]);
    expect(buildDiffLines([])).toHaveLength(1);
  });
});
