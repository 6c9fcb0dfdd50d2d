import { describe, expect, it } from 'vitest';
import { extractToolPaths } from './extract-tool-paths.ts';

describe('extractToolPaths (pure)', () => {
  it('names the path field and access of each file tool', () => {
    expect(extractToolPaths('Read', { file_path: 'a' })).toEqual({
      targets: [{ field: 'file_path', path: 'a', access: 'read' }],
    });
    for (const tool of ['Write', 'Edit', 'MultiEdit']) {
      expect(extractToolPaths(tool, { file_path: 'a' })).toEqual({
        targets: [{ field: 'file_path', path: 'a', access: 'write' }],
      });
    }
    expect(extractToolPaths('NotebookEdit', { notebook_path: 'n.ipynb' })).toEqual({
      targets: [{ field: 'notebook_path', path: 'n.ipynb', access: 'write' }],
    });
    expect(extractToolPaths('Grep', { pattern: 'x' })).toEqual({
      targets: [{ field: 'path', path: undefined, access: 'read' }],
    });
    expect(extractToolPaths('Bash', { command: 'ls' })).toBeNull();
  });

  it.each([
    ['src/**/*.ts', undefined, 'src'],
    ['src/lib/index.ts', undefined, 'src/lib/index.ts'],
    ['**/*.ts', undefined, null],
    ['*.md', 'docs', null],
    ['lib/*.ts', 'pkg', 'pkg/lib'],
    ['../other/*', undefined, '../other'],
    ['/etc/*', 'src', '/etc'],
    ['/*', undefined, '/'],
    ['node_modules/@types/*', undefined, 'node_modules'],
  ])('Glob %s (path %s) checks the static prefix %s', (pattern, path, prefix) => {
    const result = extractToolPaths('Glob', { pattern, ...(path === undefined ? {} : { path }) });
    expect(result).toHaveProperty('targets');
    const targets = (result as { targets: { field: string; path?: string }[] }).targets;
    expect(targets[0]).toMatchObject({ field: 'path', path });
    expect(targets.find((target) => target.field === 'pattern')?.path ?? null).toBe(prefix);
  });

  it.each([
    ['src/*/../../x', /climbs/],
    ['*/..', /climbs/],
    ['{a,..}/x', /climbs/],
    ['{src,/etc}/*', /brace alternative/],
    ['x/{a,~/b}', /brace alternative/],
    ['~/*', /home directory/],
    ['', /no string 'pattern'/],
  ])('Glob %s is refused', (pattern, reason) => {
    expect(extractToolPaths('Glob', { pattern })).toEqual({ error: expect.stringMatching(reason) });
  });

  it('a dotted name after a wildcard is not a climb', () => {
    expect(extractToolPaths('Glob', { pattern: 'src/**/*..ts' })).toHaveProperty('targets');
    expect(extractToolPaths('Glob', { pattern: 'src/**/..hidden' })).toHaveProperty('targets');
  });
});
