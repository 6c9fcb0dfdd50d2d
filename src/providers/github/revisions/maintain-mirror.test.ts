import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeGitHubGit, type FakeGitHubGit } from '../../../demo/fake-github/create-fake-github-git.ts';
import { runGit } from '../../../process/run-command.ts';
import { localScratchDir } from '../../shared/local-scratch-dir.ts';
import { maintainMirror } from './maintain-mirror.ts';

const repositories: FakeGitHubGit[] = [];
afterEach(async () => {
  for (const repository of repositories.splice(0)) await repository.remove();
});

describe('maintainMirror', () => {
  it('removes what a killed run left and what only scratch branches reached; keeps the default branch', async () => {
    const mirror = await createFakeGitHubGit('main');
    repositories.push(mirror);
    const main = await mirror.commitFiles('main', { 'README.md': 'x\n' }, 'base');
    const scratchBranch = await mirror.commitFiles(
      'flotilla/7',
      { 'big.bin': 'y'.repeat(10_000) },
      'patch',
      main,
    );
    await runGit(['update-ref', 'refs/flotilla/remote-head', scratchBranch], { cwd: mirror.path });
    const staleApply = join(localScratchDir(mirror.path), 'apply-killed');
    await mkdir(staleApply, { recursive: true });
    await writeFile(join(staleApply, 'index'), 'stale');

    const { removed } = await maintainMirror(mirror.path, 'main');
    expect(removed).toEqual([staleApply, 'refs/flotilla/remote-head', 'refs/heads/flotilla/7']);
    await expect(stat(staleApply)).rejects.toThrow(/ENOENT/);
    expect(await mirror.resolveCommit('refs/heads/main')).toBe(main);
    // The patch's commit (and its blob) are gone from the object store, not only unreferenced.
    await expect(runGit(['cat-file', '-e', scratchBranch], { cwd: mirror.path })).rejects.toThrow();
  });

  it('leaves a mirror that does not exist yet alone', async () => {
    expect(await maintainMirror('/nonexistent/mirror.git', 'main')).toEqual({ removed: [] });
  });
});
