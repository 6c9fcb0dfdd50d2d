import { describe, expect, it } from 'vitest';
import { diffSpecText } from './diff-spec-text.ts';

describe('diffSpecText', () => {
  it('produces a unified diff labelled with the spec path, and nothing for equal texts', async () => {
    expect(await diffSpecText('docs/x.md', 'a\nb\nc\n', 'a\nB\nc\n')).toBe(
      '--- a/docs/x.md\n+++ b/docs/x.md\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
    );
    expect(await diffSpecText('docs/x.md', 'same\n', 'same\n')).toBe('');
  });

  it('labels a path that would leave the scratch directory as `spec`', async () => {
    expect(await diffSpecText('../../etc/x.md', 'a\n', 'b\n')).toBe(
      '--- a/spec\n+++ b/spec\n@@ -1 +1 @@\n-a\n+b\n',
    );
  });
});
