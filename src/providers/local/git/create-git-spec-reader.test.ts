import { rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../../test/support/shared/create-temp-git-repo.ts';
import { createGitSpecReader } from './create-git-spec-reader.ts';
import { readBlobs } from './read-blobs.ts';

let repo: TempGitRepo;

beforeEach(async () => {
  repo = await createTempGitRepo();
});

afterEach(async () => {
  await repo.cleanup();
});

function reader(specsDir = 'docs/specs') {
  return createGitSpecReader({ repoRoot: repo.root, defaultBranch: 'main', specsDir });
}

async function blobSHA(path: string, rev = 'main'): Promise<string> {
  return (await repo.git(['rev-parse', `${rev}:${path}`])).trim();
}

describe('createGitSpecReader', () => {
  it('reads a spec by blob SHA from the object database, ignoring uncommitted edits in the checkout', async () => {
    await repo.commit('spec', { 'docs/specs/a.md': 'version one\nno newline at end' });
    const first = await blobSHA('docs/specs/a.md');
    await repo.commit('spec v2', { 'docs/specs/a.md': 'version two\n' });
    await repo.write({ 'docs/specs/a.md': 'edited, not committed\n' });
    expect(await reader().readSpecBlob(first)).toBe('version one\nno newline at end');
    expect(await reader().readSpecBlob(await blobSHA('docs/specs/a.md'))).toBe('version two\n');
  });

  it('reads only full blob SHAs (no revision expressions, no other objects)', async () => {
    await repo.commit('spec', { 'docs/specs/a.md': 'x\n' });
    await expect(reader().readSpecBlob('main:docs/specs/a.md')).rejects.toThrow('Not a blob SHA');
    const commit = (await repo.git(['rev-parse', 'main'])).trim();
    await expect(reader().readSpecBlob(commit)).rejects.toThrow(`Blob ${commit} is a commit, not a blob`);
  });

  it('lists markdown specs under specsDir on the default branch with blob SHAs and statuses', async () => {
    await repo.commit('specs', {
      'docs/specs/a.md': '---\nstatus: approved\n---\n# A\n',
      'docs/specs/nested/b.md': '---\r\nstatus: "deprecated"\r\n---\r\n# B\r\n',
      'docs/specs/c.md': '# C has no frontmatter\n',
      'docs/specs/D.MD': '---\nstatus: approved\n---\n',
      'docs/specs/notes.txt': '---\nstatus: approved\n---\n',
      'docs/specs/diagram.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1]),
      'docs/specs-old/e.md': '---\nstatus: approved\n---\n',
      'docs/other.md': '---\nstatus: approved\n---\n',
      'README.md': '---\nstatus: approved\n---\n',
    });

    const listing = await reader().listSpecs();

    expect(listing.problems).toEqual([]);
    expect(listing.specs).toEqual([
      {
        filePath: 'docs/specs/D.MD',
        blobSHA: await blobSHA('docs/specs/D.MD'),
        frontmatterStatus: 'approved',
      },
      {
        filePath: 'docs/specs/a.md',
        blobSHA: await blobSHA('docs/specs/a.md'),
        frontmatterStatus: 'approved',
      },
      { filePath: 'docs/specs/c.md', blobSHA: await blobSHA('docs/specs/c.md'), frontmatterStatus: 'draft' },
      {
        filePath: 'docs/specs/nested/b.md',
        blobSHA: await blobSHA('docs/specs/nested/b.md'),
        frontmatterStatus: 'deprecated',
      },
    ]);
  });

  it.each(['./docs/specs/', 'docs/specs/', 'docs/specs'])('accepts specsDir written as %j', async (dir) => {
    await repo.commit('specs', { 'docs/specs/a.md': '---\nstatus: approved\n---\n', 'x.md': '' });
    expect((await reader(dir).listSpecs()).specs.map((spec) => spec.filePath)).toEqual(['docs/specs/a.md']);
  });

  it('reads the whole repository when specsDir is "."', async () => {
    await repo.commit('specs', { 'a.md': '---\nstatus: approved\n---\n', 'docs/b.md': '' });
    expect((await reader('.').listSpecs()).specs.map((spec) => spec.filePath)).toEqual(['a.md', 'docs/b.md']);
  });

  it('refuses a specsDir outside the repository', () => {
    expect(() => reader('../elsewhere')).toThrow(/specsDir must be a path inside the repository/);
    expect(() => reader('/etc')).toThrow(/specsDir must be a path inside the repository/);
  });

  it('reads the committed default branch, not the working tree, the index or the checked-out branch', async () => {
    await repo.commit('specs', { 'docs/specs/a.md': '---\nstatus: draft\n---\n' });
    const committed = await blobSHA('docs/specs/a.md');
    // Uncommitted edits, a staged new spec, and a commit on another checked-out branch do not count.
    await repo.write({ 'docs/specs/a.md': '---\nstatus: approved\n---\n', 'docs/specs/new.md': '' });
    await repo.git(['add', 'docs/specs/new.md']);
    await repo.git(['checkout', '--quiet', '-b', 'feature']);
    await repo.commit('feature spec', { 'docs/specs/feature.md': '---\nstatus: approved\n---\n' });
    await repo.write({ 'docs/specs/untracked.md': '---\nstatus: approved\n---\n' });

    const listing = await reader().listSpecs();

    expect(listing.specs).toEqual([
      { filePath: 'docs/specs/a.md', blobSHA: committed, frontmatterStatus: 'draft' },
    ]);
  });

  it('reports broken frontmatter as problems naming the file, lists those specs as drafts and the rest as usual', async () => {
    await repo.commit('specs', {
      'docs/specs/good.md': '---\nstatus: approved\n---\n',
      'docs/specs/bad-yaml.md': '---\nstatus: [approved\n---\n',
      'docs/specs/bad-status.md': '---\nstatus: aproved\n---\n',
      'docs/specs/bad-type.md': '---\nstatus: 3\n---\n',
      'docs/specs/unclosed.md': '---\nstatus: approved\n',
    });

    const listing = await reader().listSpecs();

    expect(listing.specs.map((spec) => [spec.filePath, spec.frontmatterStatus])).toEqual([
      ['docs/specs/bad-status.md', 'draft'],
      ['docs/specs/bad-type.md', 'draft'],
      ['docs/specs/bad-yaml.md', 'draft'],
      ['docs/specs/good.md', 'approved'],
      ['docs/specs/unclosed.md', 'draft'],
    ]);
    expect(listing.problems.map((problem) => problem.filePath)).toEqual([
      'docs/specs/bad-status.md',
      'docs/specs/bad-type.md',
      'docs/specs/bad-yaml.md',
      'docs/specs/unclosed.md',
    ]);
    const messages = Object.fromEntries(
      listing.problems.map((problem) => [problem.filePath, problem.message]),
    );
    expect(messages['docs/specs/bad-status.md']).toMatch(
      /^broken frontmatter, treated as draft: status is "aproved"; expected "status: draft", "status: approved" or "status: deprecated"$/,
    );
    expect(messages['docs/specs/bad-type.md']).toMatch(/status is number 3; expected/);
    expect(messages['docs/specs/bad-yaml.md']).toMatch(/invalid YAML in the frontmatter/);
    expect(messages['docs/specs/unclosed.md']).toMatch(/never closed/);
  });

  it('ignores symlinks and submodules under specsDir', async () => {
    await repo.write({ 'docs/specs/real.md': '---\nstatus: approved\n---\n' });
    await symlink('real.md', join(repo.root, 'docs/specs/link.md'));
    await repo.git(['add', '-A']);
    const sub = (await repo.commit('with link')).trim();
    await repo.git(['update-index', '--add', '--cacheinfo', `160000,${sub},docs/specs/module.md`]);
    await repo.git(['commit', '--quiet', '-m', 'gitlink']);
    expect((await reader().listSpecs()).specs.map((spec) => spec.filePath)).toEqual(['docs/specs/real.md']);
  });

  it('returns an empty listing when specsDir does not exist on the default branch', async () => {
    await repo.commit('no specs', { 'README.md': '' });
    expect(await reader().listSpecs()).toEqual({ specs: [], problems: [] });
  });

  it('reads each blob once: cached results survive the object disappearing, new blobs are read', async () => {
    await repo.commit('specs', { 'docs/specs/a.md': '---\nstatus: approved\n---\n' });
    const specReader = reader();
    await specReader.listSpecs();
    await repo.commit('another', { 'docs/specs/b.md': '---\nstatus: deprecated\n---\n' });
    // The first spec's blob (a loose object in a fresh repo) goes: only the cache still knows its status.
    const sha = await blobSHA('docs/specs/a.md');
    await rm(join(repo.root, '.git/objects', sha.slice(0, 2), sha.slice(2)));
    await expect(reader().listSpecs()).rejects.toThrow(sha);

    const listing = await specReader.listSpecs();

    expect(listing.specs.map((spec) => [spec.filePath, spec.frontmatterStatus])).toEqual([
      ['docs/specs/a.md', 'approved'],
      ['docs/specs/b.md', 'deprecated'],
    ]);
  });

  it('follows the default branch as it moves (edits, status changes, removals)', async () => {
    await repo.commit('v1', { 'docs/specs/a.md': '---\nstatus: draft\n---\n', 'docs/specs/b.md': '' });
    const specReader = reader();
    expect((await specReader.listSpecs()).specs.map((spec) => spec.frontmatterStatus)).toEqual([
      'draft',
      'draft',
    ]);
    await repo.write({ 'docs/specs/a.md': '---\nstatus: approved\n---\n' });
    await rm(join(repo.root, 'docs/specs/b.md'));
    await repo.commit('v2');
    const listing = await specReader.listSpecs();
    expect(listing.specs).toEqual([
      {
        filePath: 'docs/specs/a.md',
        blobSHA: await blobSHA('docs/specs/a.md'),
        frontmatterStatus: 'approved',
      },
    ]);
  });

  it('getDefaultBranchSHA is the default branch head, even with a tag of the same name', async () => {
    const first = await repo.commit('one', { 'a.txt': '1' });
    await repo.git(['tag', 'main', first]);
    const second = await repo.commit('two', { 'a.txt': '2' });
    expect(await reader().getDefaultBranchSHA()).toBe(second);
  });

  it('names a missing default branch', async () => {
    await repo.commit('one', { 'a.txt': '1' });
    const specReader = createGitSpecReader({ repoRoot: repo.root, defaultBranch: 'trunk', specsDir: 'docs' });
    await expect(specReader.getDefaultBranchSHA()).rejects.toThrow('Default branch trunk not found');
    await expect(specReader.listSpecs()).rejects.toThrow('Default branch trunk not found');
  });
});

describe('readBlobs', () => {
  it('reads many blobs with exact contents, multi-byte characters included', async () => {
    const files = {
      'a.md': 'plain\n',
      'b.md': 'émoji 🚀 and ünïcödé\n',
      'c.md': '',
      'd.md': 'no newline',
      'e.md': 'x'.repeat(100_000),
    };
    await repo.commit('blobs', files);
    const shas = await Promise.all(Object.keys(files).map((path) => blobSHA(path)));
    const contents = await readBlobs(repo.root, [...shas, shas[0]!]);
    expect(Object.keys(files).map((_, i) => contents.get(shas[i]!))).toEqual(Object.values(files));
  });

  it('still reads every blob when one is not valid UTF-8', async () => {
    await repo.commit('blobs', { 'latin1.md': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), 'ok.md': 'ok\n' });
    const latin1 = await blobSHA('latin1.md');
    const ok = await blobSHA('ok.md');
    const contents = await readBlobs(repo.root, [latin1, ok]);
    expect(contents.get(latin1)).toBe('caf\uFFFD\n');
    expect(contents.get(ok)).toBe('ok\n');
  });

  it('names a missing blob', async () => {
    await repo.commit('one', { 'a.md': 'a' });
    const missing = '0123456789abcdef0123456789abcdef01234567';
    await expect(readBlobs(repo.root, [missing])).rejects.toThrow(`Blob ${missing} is missing`);
  });
});
