import { describe, expect, it } from 'vitest';
import { parsePatchFiles } from './parse-patch-files.ts';

const MODIFIED = [
  'diff --git a/src/app.ts b/src/app.ts',
  'index 1111111..2222222 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,3 +1,3 @@',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  ' export { a, b };',
].join('\n');

const ADDED = [
  'diff --git a/docs/new.md b/docs/new.md',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/docs/new.md',
  '@@ -0,0 +1,2 @@',
  '+# New',
  '+text',
].join('\n');

const REMOVED = [
  'diff --git a/old.txt b/old.txt',
  'deleted file mode 100644',
  'index 4444444..0000000',
  '--- a/old.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-gone',
].join('\n');

const RENAMED = [
  'diff --git a/lib/before.ts b/lib/after.ts',
  'similarity index 90%',
  'rename from lib/before.ts',
  'rename to lib/after.ts',
  'index 5555555..6666666 100644',
  '--- a/lib/before.ts',
  '+++ b/lib/after.ts',
  '@@ -1 +1 @@',
  '-x',
  '+y',
].join('\n');

const BINARY = [
  'diff --git a/img/logo.png b/img/logo.png',
  'new file mode 100644',
  'index 0000000..7777777',
  'Binary files /dev/null and b/img/logo.png differ',
].join('\n');

describe('parsePatchFiles', () => {
  it('returns no files for an empty patch or text without diff headers', () => {
    expect(parsePatchFiles('')).toEqual([]);
    expect(parsePatchFiles('just words\nno diff here\n')).toEqual([]);
  });

  it('reads a modified file with its hunks (headers excluded, like GitHub)', () => {
    expect(parsePatchFiles(`${MODIFIED}\n`)).toEqual([
      {
        path: 'src/app.ts',
        status: 'modified',
        patch: '@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 3;\n export { a, b };',
      },
    ]);
  });

  it('reads added, removed, renamed and binary files in patch order', () => {
    const files = parsePatchFiles([ADDED, REMOVED, RENAMED, BINARY, MODIFIED].join('\n'));
    expect(files.map(({ path, status }) => ({ path, status }))).toEqual([
      { path: 'docs/new.md', status: 'added' },
      { path: 'old.txt', status: 'removed' },
      { path: 'lib/after.ts', status: 'renamed' },
      { path: 'img/logo.png', status: 'added' },
      { path: 'src/app.ts', status: 'modified' },
    ]);
    expect(files[0]?.patch).toBe('@@ -0,0 +1,2 @@\n+# New\n+text');
    expect(files[1]?.patch).toBe('@@ -1 +0,0 @@\n-gone');
    expect(files[2]?.patch).toBe('@@ -1 +1 @@\n-x\n+y');
    expect(files[3]?.patch).toBeNull();
  });

  it('treats a GIT binary patch as binary', () => {
    const patch = [
      'diff --git a/bin/data b/bin/data',
      'index 1..2 100644',
      'GIT binary patch',
      'literal 3',
      'KcmZ>',
    ].join('\n');
    expect(parsePatchFiles(patch)).toEqual([{ path: 'bin/data', status: 'modified', patch: null }]);
  });

  it('reads a pure rename and a mode change (no hunks) with an empty patch', () => {
    const patch = [
      'diff --git a/a.txt b/b.txt',
      'similarity index 100%',
      'rename from a.txt',
      'rename to b.txt',
      'diff --git a/run.sh b/run.sh',
      'old mode 100644',
      'new mode 100755',
    ].join('\n');
    expect(parsePatchFiles(patch)).toEqual([
      { path: 'b.txt', status: 'renamed', patch: '' },
      { path: 'run.sh', status: 'modified', patch: '' },
    ]);
  });

  it('reads a copy', () => {
    const patch = [
      'diff --git a/x.ts b/y.ts',
      'similarity index 100%',
      'copy from x.ts',
      'copy to y.ts',
    ].join('\n');
    expect(parsePatchFiles(patch)).toEqual([{ path: 'y.ts', status: 'copied', patch: '' }]);
  });

  it('handles paths with spaces and quoted paths', () => {
    const spaced = [
      'diff --git a/my dir/f b.txt b/my dir/f b.txt',
      'old mode 100644',
      'new mode 100755',
    ].join('\n');
    expect(parsePatchFiles(spaced)[0]?.path).toBe('my dir/f b.txt');

    const quoted = [
      'diff --git "a/sp\\303\\244ce.txt" "b/sp\\303\\244ce.txt"',
      'new file mode 100644',
      '--- /dev/null',
      '+++ "b/sp\\303\\244ce.txt"',
      '@@ -0,0 +1 @@',
      '+hi',
    ].join('\n');
    expect(parsePatchFiles(quoted)[0]).toEqual({
      path: 'späce.txt',
      status: 'added',
      patch: '@@ -0,0 +1 @@\n+hi',
    });

    const quotedBinary = [
      'diff --git "a/t\\tab" "b/t\\tab"',
      'Binary files "a/t\\tab" and "b/t\\tab" differ',
    ].join('\n');
    expect(parsePatchFiles(quotedBinary)[0]).toEqual({ path: 't\tab', status: 'modified', patch: null });
  });

  it('strips a tab-separated timestamp from ---/+++ lines', () => {
    const patch = [
      'diff --git a/t.txt b/t.txt',
      '--- a/t.txt\t2024-01-01 00:00:00',
      '+++ b/t.txt\t2024-01-01 00:00:01',
      '@@ -1 +1 @@',
      '-a',
      '+b',
    ].join('\n');
    expect(parsePatchFiles(patch)[0]?.path).toBe('t.txt');
  });

  it('keeps several hunks of one file together', () => {
    const patch = [
      'diff --git a/m.ts b/m.ts',
      '--- a/m.ts',
      '+++ b/m.ts',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      '@@ -10 +10 @@',
      '-c',
      '+d',
    ].join('\n');
    expect(parsePatchFiles(patch)).toEqual([
      { path: 'm.ts', status: 'modified', patch: '@@ -1 +1 @@\n-a\n+b\n@@ -10 +10 @@\n-c\n+d' },
    ]);
  });
});
