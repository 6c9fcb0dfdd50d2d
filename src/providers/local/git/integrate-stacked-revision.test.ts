import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../../test/support/shared/create-temp-git-repo.ts';
import { extractPatch } from '../../../workspace/extract-patch.ts';
import { createBranchFromPatch, STACK_BASE_TRAILER } from '../../shared/create-branch-from-patch.ts';
import { IntegrateRevisionError, integrateRevision } from './integrate-revision.ts';

// Issue #30: a revision made on top of another's (stacked) is committed on it and merges after it.
describe('stacked revisions', () => {
  let repo: TempGitRepo;
  const identity = { name: 'Flotilla', email: 'flotilla@localhost' };

  beforeEach(async () => {
    repo = await createTempGitRepo();
    await repo.commit('base', { 'README.md': '# words\n' });
    // The user's checkout is on another branch, so merges move `main` by compare-and-swap.
    await repo.git(['checkout', '--quiet', '-b', 'elsewhere']);
  });
  afterEach(() => repo.cleanup());

  /** The patch an agent would make in a worktree at `from` by writing `files`. */
  async function patchAt(from: string, files: Record<string, string>): Promise<string> {
    const scratch = await mkdtemp(join(tmpdir(), 'flotilla-stack-'));
    const worktree = join(scratch, 'wt');
    await repo.git(['worktree', 'add', '--quiet', '--detach', worktree, from]);
    try {
      for (const [path, content] of Object.entries(files)) await writeFile(join(worktree, path), content);
      return await extractPatch({ worktreePath: worktree, baseCommit: from });
    } finally {
      await repo.git(['worktree', 'remove', '--force', worktree]);
      await rm(scratch, { recursive: true, force: true });
    }
  }

  const revision = async (branchName: string, patch: string, base?: string) =>
    createBranchFromPatch({
      repoRoot: repo.root,
      defaultBranch: 'main',
      branchName,
      patch,
      commitMessage: `${branchName}\n`,
      author: identity,
      ...(base !== undefined && { base }),
    });

  const merge = (branchName: string, headSHA: string, method?: 'squash') =>
    integrateRevision({
      repoRoot: repo.root,
      defaultBranch: 'main',
      branchName,
      headSHA,
      message: `Merge ${branchName}\n`,
      fallbackIdentity: identity,
      ...(method !== undefined && { method }),
    });

  async function stack() {
    const main = (await repo.git(['rev-parse', 'main'])).trim();
    const a = await revision('flotilla/a', await patchAt(main, { 'wordcount.js': 'export const n = 1;\n' }));
    const bPatch = await patchAt(a.headSHA, { 'use.js': "import { n } from './wordcount.js';\n" });
    const b = await revision('flotilla/b', bPatch, a.headSHA);
    return { main, a, b };
  }

  it('commits the dependent on its base, with only its own files and the base in a trailer', async () => {
    const { a, b } = await stack();
    expect(b.baseSHA).toBe(a.headSHA);
    expect((await repo.git(['rev-parse', `${b.headSHA}^1`])).trim()).toBe(a.headSHA);
    expect(b.files.map((file) => file.path)).toEqual(['use.js']);
    expect(await repo.git(['log', '-1', '--format=%B', b.headSHA])).toContain(
      `${STACK_BASE_TRAILER}: ${a.headSHA}`,
    );
  });

  it('applies on the tip as before when the base is already on the default branch', async () => {
    const main = (await repo.git(['rev-parse', 'main'])).trim();
    const made = await revision('flotilla/c', await patchAt(main, { 'c.js': 'c\n' }), main);
    expect(made.baseSHA).toBe(main);
    expect(await repo.git(['log', '-1', '--format=%B', made.headSHA])).not.toContain(STACK_BASE_TRAILER);
  });

  it('refuses to merge the dependent first, then merges both in order', async () => {
    const { main, a, b } = await stack();
    const first = merge('flotilla/b', b.headSHA);
    await expect(first).rejects.toThrow(IntegrateRevisionError);
    await expect(first).rejects.toThrow(/builds on .*merge the revisions it builds on first/);
    expect((await repo.git(['rev-parse', 'main'])).trim()).toBe(main);

    expect((await merge('flotilla/a', a.headSHA)).strategy).toBe('fast-forward');
    expect((await merge('flotilla/b', b.headSHA)).strategy).toBe('fast-forward');
    expect(await repo.git(['show', 'main:use.js'])).toContain('wordcount.js');
    expect(await repo.git(['show', 'main:wordcount.js'])).toContain('n = 1');
  });

  it('merges the dependent after its base was squashed onto a moved default branch', async () => {
    const { a, b } = await stack();
    // main moves on meanwhile, so nothing is a fast-forward; then A lands squashed (a new commit).
    await repo.git(['checkout', '--quiet', 'main']);
    await repo.commit('meanwhile', { 'other.txt': 'other\n' });
    await repo.git(['checkout', '--quiet', 'elsewhere']);
    expect((await merge('flotilla/a', a.headSHA, 'squash')).strategy).toBe('squash');
    const result = await merge('flotilla/b', b.headSHA);
    expect(result.strategy).toBe('merge-commit');
    expect(await repo.git(['show', 'main:use.js'])).toContain('wordcount.js');
    expect(await repo.git(['show', 'main:other.txt'])).toBe('other\n');
  });
});
