import { describe, expect, it } from 'vitest';
import { estimateTouchedFiles, findSharedPath } from './estimate-touched-files.ts';

describe('estimateTouchedFiles', () => {
  it("reads the files a planner's item names, backticked or bare, and leaves out URLs, prose and absolute paths", () => {
    const body = [
      '## Objective',
      'Export `wordCount` from src/wordcount.js and test it in `test/wordcount.test.js`.',
      '',
      '## In Scope',
      '- src/index.js: re-export it.',
      '- the docs/ folder (docs/usage.md).',
      '',
      'See https://example.com/guide.html and /etc/passwd, e.g. or i.e. nothing else; ../outside.txt is not ours.',
    ].join('\n');
    expect(estimateTouchedFiles({ body, revisionFiles: [] })).toEqual([
      'docs/usage.md',
      'src/index.js',
      'src/wordcount.js',
      'test/wordcount.test.js',
    ]);
  });

  it('leaves out the spec an item implements: two items of one spec do not overlap for naming it', () => {
    const item = (n: number) =>
      `## Objective\nExport module${n}() from src/module${n}.js.\n\n## Spec Reference\ndocs/specs/modules.md\n\n## Acceptance Criteria\n- [ ] test/module${n}.test.js passes\n`;
    expect(estimateTouchedFiles({ body: item(1), revisionFiles: [] })).toEqual([
      'src/module1.js',
      'test/module1.test.js',
    ]);
    // Last in the body too; a spec the objective itself names (to edit it) still counts.
    expect(
      estimateTouchedFiles({
        body: 'Edit docs/specs/a.md.\n\n## Spec Reference\ndocs/specs/b.md',
        revisionFiles: [],
      }),
    ).toEqual(['docs/specs/a.md']);
  });

  it("adds a rework's revision files, and is null when nothing is named", () => {
    expect(estimateTouchedFiles({ body: 'Fix the greeting.', revisionFiles: ['src/greet.ts'] })).toEqual([
      'src/greet.ts',
    ]);
    expect(estimateTouchedFiles({ body: 'Make it faster, please.', revisionFiles: [] })).toBeNull();
  });
});

describe('estimateTouchedFiles: words against the repository', () => {
  const repositoryFiles = [
    'README.md',
    'src/index.js',
    'src/wordcount.js',
    'src/word-frequency.ts',
    'test/wordcount.test.js',
    'docs/api.md',
  ];

  it('matches the words of an item that names no file against the files’ base names', () => {
    expect(
      estimateTouchedFiles({
        body: 'Export wordCount\nAdd it to the index.',
        revisionFiles: [],
        repositoryFiles,
      }),
    ).toEqual(['src/wordcount.js', 'test/wordcount.test.js']);
    // Case and separators do not matter: "word frequency" is not one word, "word_frequency" is.
    expect(
      estimateTouchedFiles({ body: 'Speed up word_frequency.', revisionFiles: [], repositoryFiles }),
    ).toEqual(['src/word-frequency.ts']);
    expect(
      estimateTouchedFiles({
        body: 'Speed up the word frequency count.',
        revisionFiles: [],
        repositoryFiles,
      }),
    ).toBeNull();
  });

  it('never matches by name when the text names files, nor generic or short names', () => {
    expect(
      estimateTouchedFiles({
        body: 'Export wordCount from lib/count.js.',
        revisionFiles: [],
        repositoryFiles,
      }),
    ).toEqual(['lib/count.js']);
    // "README", "index" and "api" say little about which file: nothing is known.
    expect(
      estimateTouchedFiles({
        body: 'Update the README and the api index.',
        revisionFiles: [],
        repositoryFiles,
      }),
    ).toBeNull();
  });
});

describe('findSharedPath', () => {
  it('finds a shared file, or a file inside a directory the other names', () => {
    expect(findSharedPath(['src/a.ts', 'README.md'], ['README.md'])).toBe('README.md');
    expect(findSharedPath(['src'], ['lib/x.ts', 'src/b.ts'])).toBe('src/b.ts');
    expect(findSharedPath(['src/b.ts'], ['src'])).toBe('src/b.ts');
    expect(findSharedPath(['src/a.ts'], ['src/ab.ts', 'srcs/a.ts'])).toBeNull();
  });
});
