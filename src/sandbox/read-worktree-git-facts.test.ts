import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { readWorktreeGitFacts } from './read-worktree-git-facts.ts';

/** What git itself says, as prepare-sandbox-git-dir.ts asked it before the files were read. */
async function gitFacts(repo: TempGitRepo, worktree: string) {
  const [ownGitDir, commonDir, objectFormat, head] = (
    await repo.git(
      [
        'rev-parse',
        '--path-format=absolute',
        '--git-dir',
        '--git-common-dir',
        '--show-object-format',
        'HEAD',
      ],
      worktree,
    )
  )
    .trim()
    .split('\n');
  const branch = (await repo.git(['symbolic-ref', '--quiet', 'HEAD'], worktree).catch(() => '')).trim();
  const refs = (
    await repo.git(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads', 'refs/tags'], worktree)
  ).trim();
  return { ownGitDir, commonDir, objectFormat, head, branch, refs };
}

describe('readWorktreeGitFacts', () => {
  let repo: TempGitRepo;
  beforeAll(async () => {
    repo = await createTempGitRepo();
    await repo.commit('init', { 'a.txt': 'a\n' });
    await repo.git(['tag', 'light']);
    await repo.git(['tag', '-a', '-m', 'annotated', 'v1']);
    await repo.git(['branch', 'feature/deep/name']);
    await repo.git(['pack-refs', '--all']);
    // A loose ref newer than its packed entry wins, as in git.
    await repo.commit('second', { 'b.txt': 'b\n' });
    await repo.git(['worktree', 'add', '--quiet', '-b', 'flotilla/1', join(repo.root, '.worktrees', '1')]);
    await repo.git(['worktree', 'add', '--quiet', '--detach', join(repo.root, '.worktrees', 'detached')]);
  });
  afterAll(async () => {
    await repo.cleanup();
  });

  it.each([
    ['a linked worktree on a branch', '.worktrees/1'],
    ['a detached linked worktree', '.worktrees/detached'],
    ['the main checkout', '.'],
  ])("gives git's own answers for %s: packed, loose and annotated refs", async (_case, path) => {
    const worktree = join(repo.root, path);
    expect(readWorktreeGitFacts(worktree)).toEqual(await gitFacts(repo, worktree));
  });

  it('gives git a sha256 repository', async () => {
    const other = await createTempGitRepo();
    try {
      await rm(join(other.root, '.git'), { recursive: true });
      await other.git(['init', '--quiet', '--object-format=sha256', '-b', 'main', other.root]);
      await other.commit('init', { 'a.txt': 'a\n' });
      const facts = readWorktreeGitFacts(other.root);
      expect(facts?.objectFormat).toBe('sha256');
      expect(facts).toEqual(await gitFacts(other, other.root));
    } finally {
      await other.cleanup();
    }
  });

  it('leaves to git what it does not read: a symbolic branch, an unborn HEAD, a broken ref, no .git', async () => {
    const other = await createTempGitRepo();
    try {
      expect(readWorktreeGitFacts(other.root)).toBeNull(); // unborn: no commit yet
      await other.commit('init', { 'a.txt': 'a\n' });
      expect(readWorktreeGitFacts(other.root)).not.toBeNull();
      await other.git(['symbolic-ref', 'refs/heads/alias', 'refs/heads/main']);
      expect(readWorktreeGitFacts(other.root)).toBeNull();
      await other.git(['symbolic-ref', '--delete', 'refs/heads/alias']);
      await mkdir(join(other.root, '.git', 'refs', 'tags'), { recursive: true });
      await writeFile(join(other.root, '.git', 'refs', 'tags', 'broken'), 'not an id\n');
      expect(readWorktreeGitFacts(other.root)).toBeNull();
      expect(readWorktreeGitFacts(join(other.root, 'missing'))).toBeNull();
    } finally {
      await other.cleanup();
    }
  });
});
