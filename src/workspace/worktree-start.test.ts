import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { createRecordingLogger } from '../logging/logger.ts';
import { createWorktreeManager, type WorktreeManager } from './create-worktree-manager.ts';
import { extractPatch } from './extract-patch.ts';

// Issue #30: a worktree that starts from its blockers' revisions (stacked work) or continues a previous
// revision rebased onto the default branch (a rework), on a real repository.
describe('where a worktree starts', () => {
  let repo: TempGitRepo;
  let worktrees: WorktreeManager;
  /** Revision-like branches, one commit above main's first commit each. */
  const heads: Record<string, string> = {};

  const branchOff = async (name: string, files: Record<string, string>) => {
    await repo.git(['checkout', '--quiet', '-b', name, 'main']);
    heads[name] = await repo.commit(name, files);
    await repo.git(['checkout', '--quiet', 'main']);
  };

  beforeAll(async () => {
    repo = await createTempGitRepo();
    await repo.commit('base', {
      '.gitignore': '/.env\n.worktrees/\n',
      'src/shared.txt': 'one\ntwo\nthree\n',
    });
    await repo.write({ '.env': 'LOCAL=1\n' });
    await branchOff('flotilla/a', { 'src/a.js': 'export const a = 1;\n' });
    await branchOff('flotilla/c', { 'src/c.js': 'export const c = 3;\n' });
    await branchOff('flotilla/clash', { 'src/a.js': 'export const a = "other";\n' });
    await branchOff('flotilla/old', { 'src/shared.txt': 'one\nTWO\nthree\n', 'src/old.js': 'old\n' });
    // main moves on after the previous revision was made: a rework must see both.
    heads.main = await repo.commit('main moves', { 'src/later.txt': 'later\n' });
    await branchOff('flotilla/conflicting', { 'src/later.txt': 'mine\n' });
    heads.mainLatest = await repo.commit('main moves again', { 'src/later.txt': 'theirs\n' });
    worktrees = createWorktreeManager({
      repoRoot: repo.root,
      defaultBranch: 'main',
      setupCommand: 'none',
      logger: createRecordingLogger(),
      copy: ['.env'],
      prepareAhead: true,
    });
  });
  afterAll(async () => {
    await worktrees.settle();
    await repo.cleanup();
  });

  const patchOf = (worktree: { path: string; baseCommit: string }) =>
    extractPatch({ ...worktree, worktreePath: worktree.path, localFiles: ['.env'] });

  it('starts from the one revision it builds on; the patch holds only its own work', async () => {
    const worktree = await worktrees.create('flotilla/b', { start: { onto: [heads['flotilla/a']!] } });
    expect(worktree.baseCommit).toBe(heads['flotilla/a']);
    expect(worktree.stacked).toBe(true);
    expect(await readFile(join(worktree.path, 'src/a.js'), 'utf8')).toContain('a = 1');
    expect(existsSync(join(worktree.path, '.env'))).toBe(true);
    await writeFile(join(worktree.path, 'src/b.js'), "import { a } from './a.js';\n");
    const patch = await patchOf(worktree);
    expect(patch).toContain('b/src/b.js');
    expect(patch).not.toContain('src/a.js\n');
    expect(patch).not.toContain('.env');
    await worktrees.remove(worktree.branchName);
  });

  it('merges several revisions it builds on', async () => {
    const worktree = await worktrees.create('flotilla/d', {
      start: { onto: [heads['flotilla/a']!, heads['flotilla/c']!] },
    });
    expect(worktree.stacked).toBe(true);
    const parents = (await repo.git(['rev-list', '--parents', '-n1', worktree.baseCommit])).trim().split(' ');
    expect(parents.slice(1)).toEqual([heads['flotilla/a'], heads['flotilla/c']]);
    expect(existsSync(join(worktree.path, 'src/a.js'))).toBe(true);
    expect(existsSync(join(worktree.path, 'src/c.js'))).toBe(true);
    await worktrees.remove(worktree.branchName);
  });

  it('refuses revisions that do not merge together, leaving nothing behind', async () => {
    const runs = async () =>
      (await repo.git(['worktree', 'list'])).split('\n').filter((line) => !line.includes('agent/ahead/'));
    const before = await runs();
    await expect(
      worktrees.create('flotilla/e', { start: { onto: [heads['flotilla/a']!, heads['flotilla/clash']!] } }),
    ).rejects.toThrow(/do not merge together.*CONFLICT.*src\/a\.js/s);
    await worktrees.idle();
    expect(await runs()).toEqual(before);
  });

  it('leaves out a commit the repository lacks and says so', async () => {
    const missing = 'f'.repeat(40);
    const worktree = await worktrees.create('flotilla/f', { start: { onto: [missing] } });
    expect(worktree.stacked).toBeUndefined();
    expect(worktree.baseCommit).toBe(heads.mainLatest);
    expect(worktree.notes?.join('\n')).toContain(`could not build on ${missing}`);
    await worktrees.remove(worktree.branchName);
  });

  it('rebases a rework onto the current default branch, cleaned of untracked files first', async () => {
    await worktrees.idle(); // spares are ready: reused checkouts, with a stray file in each
    const spares = (await repo.git(['worktree', 'list', '--porcelain']))
      .split('\n')
      .filter((line) => line.startsWith('worktree ') && line.includes('agent/ahead/'))
      .map((line) => line.slice('worktree '.length));
    expect(spares.length).toBeGreaterThan(0);
    for (const spare of spares) await writeFile(join(spare, 'stray.txt'), 'left by someone\n');
    const worktree = await worktrees.create('flotilla/old', { start: { rebase: heads['flotilla/old']! } });
    expect(spares).toContain(worktree.path);
    expect(existsSync(join(worktree.path, 'stray.txt'))).toBe(false);
    expect(worktree.baseCommit).toBe(heads.mainLatest); // the patch is against the tip…
    expect(worktree.notes).toBeUndefined();
    expect(await readFile(join(worktree.path, 'src/shared.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    expect(await readFile(join(worktree.path, 'src/later.txt'), 'utf8')).toBe('theirs\n');
    expect(await readFile(join(worktree.path, '.env'), 'utf8')).toBe('LOCAL=1\n');
    const patch = await patchOf(worktree); // …so it holds the earlier work, rebased
    expect(patch).toContain('+TWO');
    expect(patch).toContain('b/src/old.js');
    expect(patch).not.toContain('later.txt');
    expect(await repo.git(['worktree', 'list', '--porcelain'])).toContain(`locked flotilla: agent run`);
    await worktrees.remove(worktree.branchName);
  });

  it('aborts a rebase that conflicts and starts the rework fresh from the default branch', async () => {
    const head = heads['flotilla/conflicting']!;
    const worktree = await worktrees.create('flotilla/g', { start: { rebase: head } });
    expect(worktree.baseCommit).toBe(heads.mainLatest);
    expect(worktree.notes?.join('\n')).toMatch(
      new RegExp(`previous revision \\(${head.slice(0, 12)}\\) could not be rebased.*CONFLICT.*starts fresh`),
    );
    expect(await readFile(join(worktree.path, 'src/later.txt'), 'utf8')).toBe('theirs\n');
    expect(await repo.git(['status', '--porcelain'], worktree.path)).toBe('');
    expect(existsSync(join(worktree.path, '.git'))).toBe(true);
    expect(await patchOf(worktree)).toBe('');
    await worktrees.remove(worktree.branchName);
  });
});
