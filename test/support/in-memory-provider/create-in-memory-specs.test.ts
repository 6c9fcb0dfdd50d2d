import { describe, expect, it } from 'vitest';
import { createInMemoryProvider } from './create-in-memory-provider.ts';
import { buildGitBlobSHA } from './in-memory-world.ts';

describe('in-memory specs', () => {
  it('starts empty with a stable default branch SHA', async () => {
    const provider = createInMemoryProvider();
    expect(await provider.specReader.listSpecs()).toEqual({ specs: [], problems: [] });
    const sha = await provider.specReader.getDefaultBranchSHA();
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await provider.specReader.getDefaultBranchSHA()).toBe(sha);
  });

  it('addSpec lists the spec, sorted by path, with the git blob SHA of its content', async () => {
    const provider = createInMemoryProvider();
    provider.control.addSpec({ filePath: 'docs/specs/b.md', frontmatterStatus: 'draft' });
    const added = provider.control.addSpec({
      filePath: 'docs/specs/a.md',
      frontmatterStatus: 'approved',
      content: '---\nstatus: approved\n---\nA\n',
    });
    expect(added).toEqual({
      filePath: 'docs/specs/a.md',
      frontmatterStatus: 'approved',
      blobSHA: buildGitBlobSHA('---\nstatus: approved\n---\nA\n'),
    });
    const listing = await provider.specReader.listSpecs();
    expect(listing.specs.map((spec) => spec.filePath)).toEqual(['docs/specs/a.md', 'docs/specs/b.md']);
    expect(listing.specs[1]?.blobSHA).toMatch(/^[0-9a-f]{40}$/);
  });

  it('buildGitBlobSHA matches git hash-object', () => {
    // `printf 'hello\n' | git hash-object --stdin`
    expect(buildGitBlobSHA('hello\n')).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('every spec change moves the default branch SHA', async () => {
    const provider = createInMemoryProvider();
    const seen = new Set<string>([await provider.specReader.getDefaultBranchSHA()]);
    const record = async () => {
      const sha = await provider.specReader.getDefaultBranchSHA();
      expect(seen.has(sha)).toBe(false);
      seen.add(sha);
    };
    provider.control.addSpec({ filePath: 's.md', frontmatterStatus: 'draft' });
    await record();
    provider.control.editSpec('s.md', { frontmatterStatus: 'approved' });
    await record();
    provider.control.setSpecProblem('s.md', 'bad frontmatter');
    await record();
    provider.control.removeSpecProblem('s.md');
    await record();
    provider.control.addSpec({ filePath: 's.md', frontmatterStatus: 'approved' });
    await record();
    provider.control.removeSpec('s.md');
    await record();
    expect(provider.control.defaultBranchSHA()).toBe(await provider.specReader.getDefaultBranchSHA());
  });

  it('editSpec changes the blob SHA when the content or status changes, and keeps it otherwise', async () => {
    const provider = createInMemoryProvider();
    const original = provider.control.addSpec({
      filePath: 's.md',
      frontmatterStatus: 'draft',
      content: 'v1',
    });
    expect(provider.control.editSpec('s.md', {}).blobSHA).toBe(original.blobSHA);
    const approved = provider.control.editSpec('s.md', { frontmatterStatus: 'approved' });
    expect(approved.frontmatterStatus).toBe('approved');
    expect(approved.blobSHA).not.toBe(original.blobSHA);
    const rewritten = provider.control.editSpec('s.md', { content: 'v2' });
    expect(rewritten).toEqual({
      filePath: 's.md',
      frontmatterStatus: 'approved',
      blobSHA: buildGitBlobSHA('v2'),
    });
    expect(provider.control.specRecords()).toEqual([{ ...rewritten, content: 'v2' }]);
    expect(() => provider.control.editSpec('missing.md', {})).toThrow('spec missing.md does not exist');
  });

  it('removeSpec removes it; unknown paths throw', async () => {
    const provider = createInMemoryProvider();
    provider.control.addSpec({ filePath: 's.md', frontmatterStatus: 'approved' });
    provider.control.removeSpec('s.md');
    expect((await provider.specReader.listSpecs()).specs).toEqual([]);
    expect(() => provider.control.removeSpec('s.md')).toThrow('spec s.md does not exist');
  });

  it('a spec problem replaces the spec in the listing, and a fixed spec clears the problem', async () => {
    const provider = createInMemoryProvider();
    provider.control.addSpec({ filePath: 'b.md', frontmatterStatus: 'approved' });
    provider.control.addSpec({ filePath: 'a.md', frontmatterStatus: 'approved' });
    provider.control.setSpecProblem('b.md', 'frontmatter is not YAML');
    provider.control.setSpecProblem('0.md', 'unreadable');
    expect(await provider.specReader.listSpecs()).toEqual({
      specs: [expect.objectContaining({ filePath: 'a.md' })],
      problems: [
        { filePath: '0.md', message: 'unreadable' },
        { filePath: 'b.md', message: 'frontmatter is not YAML' },
      ],
    });
    provider.control.addSpec({ filePath: 'b.md', frontmatterStatus: 'draft' });
    const listing = await provider.specReader.listSpecs();
    expect(listing.problems.map((problem) => problem.filePath)).toEqual(['0.md']);
    expect(listing.specs.map((spec) => spec.filePath)).toEqual(['a.md', 'b.md']);
    provider.control.removeSpecProblem('0.md');
    expect((await provider.specReader.listSpecs()).problems).toEqual([]);
    expect(() => provider.control.removeSpecProblem('0.md')).toThrow('no spec problem for 0.md');
  });

  it('returns copies of the listing and records', async () => {
    const provider = createInMemoryProvider();
    provider.control.addSpec({ filePath: 's.md', frontmatterStatus: 'approved' });
    const listing = await provider.specReader.listSpecs();
    if (listing.specs[0]) listing.specs[0].frontmatterStatus = 'deprecated';
    listing.specs.push({ filePath: 'x', blobSHA: 'x', frontmatterStatus: 'draft' });
    const records = provider.control.specRecords();
    if (records[0]) records[0].content = 'mutated';
    expect(await provider.specReader.listSpecs()).toEqual({
      specs: [expect.objectContaining({ filePath: 's.md', frontmatterStatus: 'approved' })],
      problems: [],
    });
    expect(provider.control.specRecords()[0]?.content).not.toBe('mutated');
  });
});
