import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listTrackedFiles } from './list-tracked-files.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('listTrackedFiles', () => {
  it("lists the tracked files by relative path, not untracked ones nor Flotilla's own folders", async () => {
    const root = mkdtempSync(join(tmpdir(), 'flotilla-ls-'));
    roots.push(root);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root });
    git('init', '-q');
    for (const path of [
      'src/word count.js',
      'README.md',
      '.flotilla/prompts/implementor.md',
      'scratch.txt',
    ]) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), 'x\n');
    }
    git('add', 'src', 'README.md');
    git('add', '-f', '.flotilla');
    expect((await listTrackedFiles(root)).sort()).toEqual(['README.md', 'src/word count.js']);
  });
});
