import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../test/support/shared/create-temp-git-repo.ts';
import { extractPatch } from '../../workspace/extract-patch.ts';
import { createBranchFromPatch, PatchApplyError } from './create-branch-from-patch.ts';

const AUTHOR = { name: 'Flotilla Agent', email: 'agent@flotilla.invalid' };
/** Bytes that are not valid UTF-8 and include NUL, so git treats the file as binary. */
const BINARY = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 10, 13, 0, 0x89, 0x50, 0x4e, 0x47, 200, 201, 0]);

let repo: TempGitRepo;
let base: string;

beforeEach(async () => {
  repo = await createTempGitRepo();
  base = await repo.commit('base', {
    'src/app.ts': Array.from({ length: 30 }, (_, i) => `line ${i + 1}`)
      .join('\n')
      .concat('\n'),
    'src/old-name.ts': 'export const moved = true;\n'.repeat(10),
    'src/doomed.ts': 'export const doomed = 1;\n',
    'src/becomes-link.ts': 'export const link = false;\n',
    'src/to-unicode.ts': 'export const renamed = "to a strange name";\n',
    'scripts/run.sh': '#!/bin/sh\necho run\n',
    'assets/logo.bin': BINARY,
    'README.md': '# sample\n',
  });
});

afterEach(async () => {
  await repo.cleanup();
});

type Change = (dir: string) => Promise<void>;

/**
 * Makes the change in a throwaway worktree at `from`, takes the patch exactly as the runtime adapter does
 * (extractPatch), and also commits it normally: the reference the plumbing commit must equal.
 */
async function patchAndReference(change: Change, from = base): Promise<{ patch: string; reference: string }> {
  const scratch = await mkdtemp(join(tmpdir(), 'flotilla-test-wt-'));
  const worktree = join(scratch, 'wt');
  await repo.git(['worktree', 'add', '--quiet', '--detach', worktree, from]);
  try {
    await change(worktree);
    const patch = await extractPatch({ worktreePath: worktree, baseCommit: from });
    await repo.git(['commit', '--quiet', '--allow-empty', '-m', 'normal commit'], worktree);
    const reference = (await repo.git(['rev-parse', 'HEAD'], worktree)).trim();
    return { patch, reference };
  } finally {
    await repo.git(['worktree', 'remove', '--force', worktree]);
    await rm(scratch, { recursive: true, force: true });
  }
}

/** `ls-tree -r` (mode, type, blob SHA, path) plus each blob's bytes: equal listings mean equal trees. */
async function snapshotTree(commit: string): Promise<{ listing: string; blobs: Record<string, string> }> {
  const listing = await repo.git(['ls-tree', '-r', '--full-tree', commit]);
  const blobs: Record<string, string> = {};
  for (const line of listing.trim().split('\n')) {
    const [meta, path] = line.split('\t') as [string, string];
    const sha = meta.split(' ')[2] ?? '';
    const content = await repo.git(['cat-file', 'blob', sha]);
    blobs[path] = createHash('sha256').update(content).digest('hex');
  }
  return { listing, blobs };
}

function apply(patch: string | Buffer, branchName = 'flotilla/1') {
  return createBranchFromPatch({
    repoRoot: repo.root,
    defaultBranch: 'main',
    branchName,
    patch,
    commitMessage: 'flotilla: work item #1',
    author: AUTHOR,
  });
}

async function refs(): Promise<string> {
  return repo.git(['for-each-ref', '--format=%(refname) %(objectname)']);
}

const CHANGES: Record<string, Change> = {
  'a binary file (added and modified)': async (dir) => {
    await writeFile(join(dir, 'assets/logo.bin'), Buffer.concat([BINARY, Buffer.from([0, 7, 0xff])]));
    await writeFile(join(dir, 'assets/new.bin'), Buffer.from([0xde, 0xad, 0, 0xbe, 0xef]));
  },
  'a rename with an edit': async (dir) => {
    await rename(join(dir, 'src/old-name.ts'), join(dir, 'src/new-name.ts'));
    await writeFile(join(dir, 'src/new-name.ts'), `${'export const moved = true;\n'.repeat(10)}// edited\n`);
  },
  'a pure rename': async (dir) => {
    await rename(join(dir, 'src/old-name.ts'), join(dir, 'src/renamed.ts'));
  },
  'a deletion': async (dir) => {
    await unlink(join(dir, 'src/doomed.ts'));
  },
  'a mode change (+x) with and without content change': async (dir) => {
    await chmod(join(dir, 'scripts/run.sh'), 0o755);
    await writeFile(join(dir, 'scripts/new.sh'), '#!/bin/sh\necho new\n', { mode: 0o755 });
  },
  'a symlink (added, and a file turned into a symlink)': async (dir) => {
    await symlink('../README.md', join(dir, 'src/readme-link'));
    await unlink(join(dir, 'src/becomes-link.ts'));
    await symlink('app.ts', join(dir, 'src/becomes-link.ts'));
  },
  'files without a trailing newline': async (dir) => {
    await writeFile(join(dir, 'README.md'), '# sample\nno newline at the end');
    await writeFile(join(dir, 'src/new.txt'), 'also none');
  },
  'a mid-file edit in a long file (hunks, not the whole file)': async (dir) => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    lines[14] = 'line 15 changed';
    await writeFile(join(dir, 'src/app.ts'), `${lines.join('\n')}\n`);
  },
  'paths with spaces, quotes and non-ASCII characters': async (dir) => {
    await writeFile(join(dir, 'src/with space.ts'), 'spaced\n');
    await writeFile(join(dir, 'src/naïve "quoted" ✓.md'), 'unicode\n');
    await rename(join(dir, 'src/to-unicode.ts'), join(dir, 'src/döömed tab\there.ts'));
  },
  'CRLF content, trailing whitespace and an empty file': async (dir) => {
    await writeFile(join(dir, 'src/windows.txt'), 'one\r\ntwo  \r\nthree\t\r\n');
    await writeFile(join(dir, 'src/empty.txt'), '');
  },
};

describe('createBranchFromPatch', () => {
  it.each(Object.entries(CHANGES))('reproduces %s exactly', async (_name, change) => {
    const { patch, reference } = await patchAndReference(change);
    expect(patch).not.toBe('');

    const result = await apply(patch);

    expect(result.baseSHA).toBe(base);
    expect(await snapshotTree(result.headSHA)).toEqual(await snapshotTree(reference));
    expect((await repo.git(['rev-parse', `${result.headSHA}^{tree}`])).trim()).toBe(
      (await repo.git(['rev-parse', `${reference}^{tree}`])).trim(),
    );
    expect((await repo.git(['rev-parse', 'refs/heads/flotilla/1'])).trim()).toBe(result.headSHA);
  });

  it('reproduces every kind of change at once, even when user config would alter the patch', async () => {
    const { patch, reference } = await patchAndReference(async (dir) => {
      for (const [name, change] of Object.entries(CHANGES)) if (name !== 'a pure rename') await change(dir);
    });
    // Repository config that would reject or rewrite an exact patch if it were honoured.
    await repo.git(['config', 'apply.whitespace', 'error']);
    await repo.git(['config', 'core.autocrlf', 'true']);
    await repo.git(['config', 'core.whitespace', 'cr-at-eol,trailing-space']);
    const result = await apply(patch);
    expect(await snapshotTree(result.headSHA)).toEqual(await snapshotTree(reference));
  });

  it('applies a Buffer patch byte for byte, text that is not UTF-8 included', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    const { reference } = await patchAndReference(async (dir) => {
      await writeFile(join(dir, 'src/latin1.txt'), latin1);
      await writeFile(join(dir, 'README.md'), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]));
    });
    // The raw bytes of the diff (runGit would decode them as UTF-8).
    const patch = execFileSync(
      'git',
      ['diff', '--binary', '--full-index', '--find-renames', '--no-color', '--no-ext-diff', base, reference],
      { cwd: repo.root },
    );
    const result = await apply(patch);
    expect(await snapshotTree(result.headSHA)).toEqual(await snapshotTree(reference));
  });

  it('writes a commit whose only parent is the default branch head, with the given message and author', async () => {
    const { patch } = await patchAndReference(CHANGES['a deletion']!);
    const { headSHA } = await apply(patch);
    const fields = await repo.git(['show', '-s', '--format=%P%n%an <%ae>%n%cn <%ce>%n%B', headSHA]);
    expect(fields.trim().split('\n')).toEqual([
      base,
      'Flotilla Agent <agent@flotilla.invalid>',
      'Flotilla Agent <agent@flotilla.invalid>',
      'flotilla: work item #1',
    ]);
  });

  it('lists the changed files with their statuses and per-file patches', async () => {
    const { patch } = await patchAndReference(async (dir) => {
      await CHANGES['a binary file (added and modified)']!(dir);
      await CHANGES['a rename with an edit']!(dir);
      await CHANGES['a deletion']!(dir);
      await chmod(join(dir, 'scripts/run.sh'), 0o755);
      await CHANGES['a mid-file edit in a long file (hunks, not the whole file)']!(dir);
    });
    const { files } = await apply(patch);
    const byPath = Object.fromEntries(files.map((file) => [file.path, file]));
    expect(files.map((file) => [file.path, file.status]).sort()).toEqual(
      [
        ['assets/logo.bin', 'modified'],
        ['assets/new.bin', 'added'],
        ['scripts/run.sh', 'modified'],
        ['src/app.ts', 'modified'],
        ['src/doomed.ts', 'removed'],
        ['src/new-name.ts', 'renamed'],
      ].sort(),
    );
    expect(byPath['assets/logo.bin']?.patch).toBeNull();
    expect(byPath['assets/new.bin']?.patch).toBeNull();
    expect(byPath['scripts/run.sh']?.patch).toBe('');
    expect(byPath['src/app.ts']?.patch).toMatch(/^@@ -12,7 \+12,7 @@/);
    expect(byPath['src/app.ts']?.patch).toContain('-line 15\n+line 15 changed');
    expect(byPath['src/doomed.ts']?.patch).toBe('@@ -1 +0,0 @@\n-export const doomed = 1;');
    expect(byPath['src/new-name.ts']?.patch).toContain('+// edited');
  });

  it('lists unusual paths exactly as they are named', async () => {
    const { patch } = await patchAndReference(CHANGES['paths with spaces, quotes and non-ASCII characters']!);
    const { files } = await apply(patch);
    expect(files.map((file) => [file.path, file.status, file.patch])).toEqual([
      ['src/döömed tab\there.ts', 'renamed', ''],
      ['src/naïve "quoted" ✓.md', 'added', '@@ -0,0 +1 @@\n+unicode'],
      ['src/with space.ts', 'added', '@@ -0,0 +1 @@\n+spaced'],
    ]);
  });

  it('never touches the user checkout: dirty files, staged changes, untracked files, index and HEAD stay', async () => {
    const { patch } = await patchAndReference(async (dir) => {
      await CHANGES['a rename with an edit']!(dir);
      await CHANGES['a binary file (added and modified)']!(dir);
      await writeFile(join(dir, 'README.md'), '# changed by the agent\n');
    });
    // The user is mid-work on main: an unstaged edit, a staged edit, a staged new file, an untracked file.
    await repo.write({ 'README.md': '# user edit, not staged\n', 'src/app.ts': 'staged edit\n' });
    await repo.git(['add', 'src/app.ts']);
    await repo.write({ 'src/staged-new.ts': 'new and staged\n' });
    await repo.git(['add', 'src/staged-new.ts']);
    await repo.write({ 'notes.txt': 'untracked\n' });
    const snapshot = async () => ({
      index: createHash('sha256')
        .update(await readFile(join(repo.root, '.git/index')))
        .digest('hex'),
      head: await repo.git(['symbolic-ref', 'HEAD']),
      headSHA: await repo.git(['rev-parse', 'HEAD']),
      status: await repo.git(['status', '--porcelain=v2', '--untracked-files=all']),
      staged: await repo.git(['diff', '--cached']),
      unstaged: await repo.git(['diff']),
      readme: await readFile(join(repo.root, 'README.md'), 'utf8'),
      oldName: await readFile(join(repo.root, 'src/old-name.ts'), 'utf8'),
      untracked: await readFile(join(repo.root, 'notes.txt'), 'utf8'),
    });
    const before = await snapshot();

    const result = await apply(patch);

    expect(await snapshot()).toEqual(before);
    expect(before.status).toContain('notes.txt');
    expect(before.staged).toContain('staged edit');
    expect(await repo.git(['show', `${result.headSHA}:README.md`])).toBe('# changed by the agent\n');
  });

  it('applies in a scratch dir under .flotilla/tmp of the repository (where a restart reaps it) and removes it', async () => {
    const { patch } = await patchAndReference(CHANGES['a deletion']!);
    // git runs this hook inside the ref update, i.e. while the scratch dir is in use.
    const seen = join(repo.root, 'seen-during-update.txt');
    await repo.write({
      '.git/hooks/reference-transaction': `#!/bin/sh\n[ "$1" = prepared ] || exit 0\nfor d in '${repo.root}/.flotilla/tmp'/*; do echo "$d"; ls -A "$d"; done > '${seen}'\n`,
    });
    await chmod(join(repo.root, '.git/hooks/reference-transaction'), 0o755);

    await apply(patch);

    const listing = await readFile(seen, 'utf8');
    expect(listing).toMatch(
      new RegExp(`^${repo.root}/\\.flotilla/tmp/apply-\\w+\\nindex\\nrevision\\.patch\\n$`),
    );
    expect(await readdir(join(repo.root, '.flotilla/tmp'))).toEqual([]);
  });

  it('moves an existing branch on a re-push, again from the default branch head', async () => {
    const first = await patchAndReference(CHANGES['a deletion']!);
    const firstResult = await apply(first.patch);
    const mainHead = await repo.commit('main moves on', { 'CHANGELOG.md': 'unrelated\n' });
    const second = await patchAndReference(CHANGES['files without a trailing newline']!, mainHead);

    const secondResult = await apply(second.patch);

    expect(secondResult.baseSHA).toBe(mainHead);
    expect((await repo.git(['rev-parse', `${secondResult.headSHA}^`])).trim()).toBe(mainHead);
    expect(secondResult.headSHA).not.toBe(firstResult.headSHA);
    expect((await repo.git(['rev-parse', 'refs/heads/flotilla/1'])).trim()).toBe(secondResult.headSHA);
    expect(await snapshotTree(secondResult.headSHA)).toEqual(await snapshotTree(second.reference));
  });

  it('applies on the current default branch head when main moved on without conflicting', async () => {
    const { patch } = await patchAndReference(
      CHANGES['a mid-file edit in a long file (hunks, not the whole file)']!,
    );
    const moved = await repo.commit('main moves on', { 'docs/unrelated.md': 'x\n' });
    const { baseSHA, headSHA } = await apply(patch);
    expect(baseSHA).toBe(moved);
    expect(await repo.git(['show', `${headSHA}:docs/unrelated.md`])).toBe('x\n');
    expect(await repo.git(['show', `${headSHA}:src/app.ts`])).toContain('line 15 changed');
  });

  it('rejects a patch that does not apply, naming the files, and writes nothing', async () => {
    const { patch: earlier } = await patchAndReference(CHANGES['a deletion']!);
    await apply(earlier); // flotilla/1 exists: a failed re-push must not move it
    const { patch } = await patchAndReference(async (dir) => {
      await CHANGES['a mid-file edit in a long file (hunks, not the whole file)']!(dir);
      await CHANGES['a binary file (added and modified)']!(dir);
      await writeFile(join(dir, 'src/fine.ts'), 'applies cleanly\n');
    });
    // The default branch changes the same lines and the binary file in the meantime.
    await repo.commit('conflicting', {
      'src/app.ts': Array.from({ length: 30 }, (_, i) => `other ${i + 1}`).join('\n'),
      'assets/logo.bin': Buffer.from([9, 9, 0, 9]),
    });
    const before = await refs();

    const error = await apply(patch).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(PatchApplyError);
    const applyError = error as PatchApplyError;
    expect(applyError.files.sort()).toEqual(['assets/logo.bin', 'src/app.ts']);
    expect(applyError.message).toContain('does not apply to main');
    expect(applyError.message).toContain('assets/logo.bin');
    expect(applyError.message).toContain('src/app.ts');
    expect(await refs()).toBe(before);
    // A fresh branch is not created either.
    await expect(apply(patch, 'flotilla/2')).rejects.toBeInstanceOf(PatchApplyError);
    expect(await refs()).toBe(before);
  });

  it('rejects a patch that creates a file the default branch already has, naming it', async () => {
    const { patch } = await patchAndReference(async (dir) => {
      await writeFile(join(dir, 'src/feature.ts'), 'mine\n');
    });
    await repo.commit('someone else added it', { 'src/feature.ts': 'theirs\n' });
    const error = await apply(patch).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PatchApplyError);
    expect((error as PatchApplyError).files).toEqual(['src/feature.ts']);
    expect(await repo.git(['branch', '--list', 'flotilla/*'])).toBe('');
  });

  it('rejects garbage that is not a patch without writing anything', async () => {
    const before = await refs();
    await expect(apply('this is not a diff\n')).rejects.toThrow(/does not apply/);
    expect(await refs()).toBe(before);
  });

  it.each(['', '\n  \n'])('rejects an empty patch (%j) with a clear error', async (patch) => {
    const before = await refs();
    await expect(apply(patch)).rejects.toThrow('The patch for branch flotilla/1 is empty');
    expect(await refs()).toBe(before);
  });

  it('refuses to move a branch that is checked out in a worktree', async () => {
    const { patch } = await patchAndReference(CHANGES['a deletion']!);
    await apply(patch);
    const scratch = await mkdtemp(join(tmpdir(), 'flotilla-test-wt-'));
    try {
      await repo.git(['worktree', 'add', '--quiet', join(scratch, 'wt'), 'flotilla/1']);
      const before = await refs();
      await expect(apply(patch)).rejects.toThrow(/Branch flotilla\/1 is checked out at .*wt; refusing/);
      expect(await refs()).toBe(before);
    } finally {
      await repo.git(['worktree', 'remove', '--force', join(scratch, 'wt')]);
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it.each([
    ['main', /onto the default branch main/],
    ['bad..name', /Invalid branch name/],
    ['refs/tags/v1', /Invalid branch name/],
  ])('refuses the branch name %s', async (branchName, message) => {
    const { patch } = await patchAndReference(CHANGES['a deletion']!);
    const before = await refs();
    await expect(apply(patch, branchName)).rejects.toThrow(message);
    expect(await refs()).toBe(before);
  });

  it('names a missing default branch', async () => {
    const { patch } = await patchAndReference(CHANGES['a deletion']!);
    await expect(
      createBranchFromPatch({
        repoRoot: repo.root,
        defaultBranch: 'trunk',
        branchName: 'flotilla/1',
        patch,
        commitMessage: 'x',
        author: AUTHOR,
      }),
    ).rejects.toThrow('Default branch trunk not found');
  });

  it('creates revisions for different branches concurrently', async () => {
    const patches = [
      await patchAndReference(CHANGES['a deletion']!),
      await patchAndReference(CHANGES['files without a trailing newline']!),
    ];
    const results = await Promise.all(patches.map(({ patch }, i) => apply(patch, `flotilla/${i + 10}`)));
    for (const [i, result] of results.entries()) {
      expect(await snapshotTree(result.headSHA)).toEqual(await snapshotTree(patches[i]!.reference));
    }
  });
});
