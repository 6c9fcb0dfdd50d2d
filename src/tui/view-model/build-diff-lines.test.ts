import { describe, expect, it } from 'vitest';
import { buildDiffLines } from './build-diff-lines.ts';

describe('buildDiffLines', () => {
  it('shows each file with its status, then its diff coloured by line kind', () => {
    const lines = buildDiffLines([
      {
        path: 'src/greet.ts',
        status: 'modified',
        patch: [
          'diff --git a/src/greet.ts b/src/greet.ts',
          'index 1111111..2222222 100644',
          '--- a/src/greet.ts',
          '+++ b/src/greet.ts',
          '@@ -1,2 +1,2 @@',
          ' export function greet(name: string) {',
          "-  return 'hi';",
          '+  return "hello " + name;',
          '',
        ].join('\n'),
      },
      { path: 'logo.png', status: 'added', patch: null },
    ]);
    expect(lines[0]).toEqual({ text: '2 files changed: 1 modified, 1 added', dim: true });
    expect(lines.filter((line) => line.rule)).toHaveLength(2);
    expect(lines).toContainEqual({ text: 'src/greet.ts (modified)', bold: true });
    expect(lines).toContainEqual({ text: '@@ -1,2 +1,2 @@', color: 'cyan' });
    expect(lines).toContainEqual({ text: "-  return 'hi';", color: 'red' });
    expect(lines).toContainEqual({ text: '+  return "hello " + name;', color: 'green' });
    expect(lines).toContainEqual({ text: '+++ b/src/greet.ts', dim: true });
    expect(lines).toContainEqual({ text: '--- a/src/greet.ts', dim: true });
    expect(lines).toContainEqual({ text: ' export function greet(name: string) {' });
    // The trailing newline of the patch is not an extra empty line.
    const greetEnd = lines.findIndex((line) => line.text === 'logo.png (added)') - 2;
    expect(lines[greetEnd]?.text).toBe('+  return "hello " + name;');
    expect(lines.at(-1)).toEqual({ text: 'binary, or too large to show here', dim: true });
  });

  it('says when there is nothing', () => {
    expect(buildDiffLines([])).toEqual([{ text: 'no changed files', dim: true }]);
  });
});
