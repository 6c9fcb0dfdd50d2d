import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../test-support/create-temp-git-repo.ts';
import { createGitSpecSource } from './create-git-spec-source.ts';

describe('createGitSpecSource', () => {
  let repo: TempGitRepo;
  beforeEach(async () => {
    repo = await createTempGitRepo();
  });
  afterEach(async () => {
    await repo.cleanup();
  });

  it('reads the current spec from the working tree, uncommitted edits included', async () => {
    await repo.commit('spec', { 'docs/specs/a.md': 'committed\n' });
    await repo.write({ 'docs/specs/a.md': 'edited on disk\n' });
    expect(await createGitSpecSource({ repoRoot: repo.root }).readSpec('docs/specs/a.md')).toBe(
      'edited on disk\n',
    );
  });

  it('refuses spec paths outside the repository', async () => {
    const source = createGitSpecSource({ repoRoot: repo.root });
    await expect(source.readSpec('../../etc/passwd')).rejects.toThrow('outside the repository');
  });

  it('reads an old version by blob SHA, byte for byte', async () => {
    await repo.commit('spec', { 'a.md': 'version one\nno newline at end' });
    const blob = (await repo.git(['rev-parse', 'HEAD:a.md'])).trim();
    await repo.commit('spec v2', { 'a.md': 'version two\n' });
    expect(await createGitSpecSource({ repoRoot: repo.root }).readBlob(blob)).toBe(
      'version one\nno newline at end',
    );
  });

  it('accepts only full blob SHAs (no revision expressions)', async () => {
    await repo.commit('spec', { 'a.md': 'x\n' });
    const source = createGitSpecSource({ repoRoot: repo.root });
    await expect(source.readBlob('HEAD:a.md')).rejects.toThrow('Not a blob SHA');
    const commit = (await repo.git(['rev-parse', 'HEAD'])).trim();
    await expect(source.readBlob(commit)).rejects.toThrow();
  });

  it('produces a unified diff labelled with the spec path, and nothing for equal texts', async () => {
    const source = createGitSpecSource({ repoRoot: repo.root });
    expect(await source.diffText('docs/x.md', 'a\nb\nc\n', 'a\nB\nc\n')).toBe(
      '--- a/docs/x.md\n+++ b/docs/x.md\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
    );
    expect(await source.diffText('docs/x.md', 'same\n', 'same\n')).toBe('');
  });
});
