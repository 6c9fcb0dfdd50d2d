import { randomBytes } from 'node:crypto';
import { chmod, lstat, readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { runGit } from '../process/run-command.ts';
import { extractPatch, PatchRefusedError } from './extract-patch.ts';

interface FileEntry {
  kind: 'file' | 'symlink';
  executable: boolean;
  content: Buffer;
}

/** Every file under `dir` except `.git`, with its bytes, executable bit, or symlink target. */
async function snapshot(dir: string): Promise<Map<string, FileEntry>> {
  const files = new Map<string, FileEntry>();
  const walk = async (current: string) => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      const key = relative(dir, path);
      if (key === '.git') continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isSymbolicLink()) {
        files.set(key, { kind: 'symlink', executable: false, content: Buffer.from(await readlink(path)) });
      } else {
        const mode = (await lstat(path)).mode;
        files.set(key, { kind: 'file', executable: (mode & 0o100) !== 0, content: await readFile(path) });
      }
    }
  };
  await walk(dir);
  return files;
}

// Long enough that a moved file with a small edit is still detected as a rename.
const LONG_TEXT = Array.from({ length: 40 }, (_, i) => `line ${i} of a file that will be renamed`).join('\n');

describe('extractPatch', () => {
  let repo: TempGitRepo;
  let baseCommit: string;
  let worktree: string;

  beforeEach(async () => {
    repo = await createTempGitRepo();
    await chmod(repo.root, 0o755);
    baseCommit = await repo.commit('base', {
      '.gitignore': 'node_modules/\n',
      'keep.txt': 'unchanged\n',
      'modify-committed.txt': 'one\ntwo\nthree\n',
      'modify-uncommitted.txt': 'alpha\nbeta\n',
      'delete-committed.txt': 'bye\n',
      'delete-uncommitted.txt': 'bye too\n',
      'rename-me.txt': `${LONG_TEXT}\n`,
      'script.sh': '#!/bin/sh\necho hi\n',
      'image.bin': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0xff]),
      'dir/nested.txt': 'nested\n',
    });
    worktree = join(repo.root, '.worktrees', 'agent');
    await repo.git(['worktree', 'add', '--quiet', worktree, '-b', 'agent', baseCommit]);
  });
  afterEach(async () => {
    await repo.cleanup();
  });

  /** What an implementor typically leaves: some work committed, some not, some never added. */
  async function simulateAgentWork(): Promise<void> {
    await repo.commit(
      'feat: first part',
      {
        'modify-committed.txt': 'one\n2\nthree\nfour\n',
        'added-committed.txt': 'new and committed\n',
        'dir/deeper/added.ts': 'export const x = 1;\n',
      },
      worktree,
    );
    await repo.git(['rm', '--quiet', 'delete-committed.txt'], worktree);
    await repo.git(['commit', '--quiet', '-m', 'chore: remove a file'], worktree);
    // Uncommitted and untracked work.
    await writeFile(join(worktree, 'modify-uncommitted.txt'), 'alpha\nBETA\ngamma\n');
    await rm(join(worktree, 'delete-uncommitted.txt'));
    await rename(join(worktree, 'rename-me.txt'), join(worktree, 'renamed.txt'));
    await writeFile(join(worktree, 'renamed.txt'), `${LONG_TEXT}\none more line\n`);
    await chmod(join(worktree, 'script.sh'), 0o755);
    await writeFile(join(worktree, 'untracked.txt'), 'never added\n');
    await writeFile(join(worktree, 'no-newline.txt'), 'no trailing newline');
    await writeFile(join(worktree, 'empty.txt'), '');
    await writeFile(join(worktree, 'image.bin'), Buffer.concat([randomBytes(2048), Buffer.from([0, 0, 0])]));
    await writeFile(join(worktree, 'new-binary.dat'), randomBytes(4096));
    await writeFile(join(worktree, 'spaced name ü.md'), 'unicode and spaces\n');
    await symlink('keep.txt', join(worktree, 'link-to-keep'));
    await writeFile(join(worktree, 'new-tool.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    // Setup products are ignored, so they stay out of the patch.
    await repo.write({ 'node_modules/pkg/index.js': 'module.exports = 1;\n' }, worktree);
  }

  /**
   * A separate clone of the default branch at the base commit. It shares no objects with the agent's
   * worktree, so the patch alone must carry every byte (binary content included).
   */
  async function freshCloneOfBase(name: string): Promise<string> {
    const path = join(repo.root, '.clones', name);
    await repo.git([
      'clone',
      '--quiet',
      '--no-local',
      '--single-branch',
      '--branch',
      'main',
      repo.root,
      path,
    ]);
    await repo.git(['checkout', '--quiet', '--detach', baseCommit], path);
    return path;
  }

  it('captures committed, uncommitted and untracked changes with deletions, renames, modes, binaries and a missing final newline', async () => {
    await simulateAgentWork();
    const patch = await extractPatch({ worktreePath: worktree, baseCommit });

    expect(patch).toContain('diff --git a/modify-committed.txt b/modify-committed.txt');
    expect(patch).toContain('+++ b/added-committed.txt');
    expect(patch).toContain(
      'diff --git a/delete-committed.txt b/delete-committed.txt\ndeleted file mode 100644',
    );
    expect(patch).toContain('+gamma');
    expect(patch).toContain('deleted file mode 100644');
    expect(patch).toContain('rename from rename-me.txt\nrename to renamed.txt');
    expect(patch).toContain('diff --git a/script.sh b/script.sh\nold mode 100644\nnew mode 100755');
    expect(patch).toContain('+++ b/untracked.txt');
    expect(patch).toContain('+no trailing newline\n\\ No newline at end of file');
    expect(patch).toContain('diff --git a/empty.txt b/empty.txt\nnew file mode 100644');
    expect(patch).toContain('GIT binary patch');
    expect(patch).toContain('new file mode 120000');
    expect(patch).toContain('new file mode 100755');
    expect(patch).toContain('"a/spaced name \\303\\274.md"');
    expect(patch).not.toContain('node_modules');
    // --full-index: complete object names on every index line.
    expect(patch).toMatch(/^index [0-9a-f]{40}\.\.[0-9a-f]{40}/m);
    // Pure ASCII, so it travels as a string.
    const printable = (char: string) => char === '\t' || char === '\n' || (char >= ' ' && char <= '~');
    expect([...patch].every(printable)).toBe(true);
  });

  it('applied with git apply --index to a fresh clone of the base, reproduces every file byte for byte, with modes', async () => {
    await simulateAgentWork();
    const patch = await extractPatch({ worktreePath: worktree, baseCommit });
    const target = await freshCloneOfBase('replay');
    await runGit(['apply', '--index', '--whitespace=nowarn', '-'], { cwd: target, input: patch });

    const expected = await snapshot(worktree);
    const actual = await snapshot(target);
    expected.delete('node_modules/pkg/index.js');
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, entry] of expected) {
      const replayed = actual.get(path);
      expect(replayed?.kind, path).toBe(entry.kind);
      expect(replayed?.executable, path).toBe(entry.executable);
      expect(replayed?.content.equals(entry.content), path).toBe(true);
    }
    expect(await repo.git(['ls-files', '--stage'], target)).toBe(
      await repo.git(['ls-files', '--stage'], worktree),
    );
  });

  it('applied with git apply --cached on a temporary index of a fresh clone, yields exactly the worktree tree', async () => {
    await simulateAgentWork();
    const patch = await extractPatch({ worktreePath: worktree, baseCommit });
    const clone = await freshCloneOfBase('cached');
    const env = { GIT_INDEX_FILE: join(clone, '.git', 'flotilla-test-index') };
    await runGit(['read-tree', baseCommit], { cwd: clone, env });
    await runGit(['apply', '--cached', '-'], { cwd: clone, env, input: patch });
    const replayedTree = (await runGit(['write-tree'], { cwd: clone, env })).stdout.trim();
    const agentTree = (await repo.git(['write-tree'], worktree)).trim();
    expect(replayedTree).toBe(agentTree);
  });

  it('takes changes against the base commit, not the default branch, which may have moved during the run', async () => {
    await writeFile(join(worktree, 'agent.txt'), 'agent\n');
    await repo.commit('main moves on', { 'upstream.txt': 'someone else\n', 'keep.txt': 'edited upstream\n' });
    const patch = await extractPatch({ worktreePath: worktree, baseCommit });
    expect(patch).toContain('+++ b/agent.txt');
    expect(patch).not.toContain('upstream.txt');
    expect(patch).not.toContain('keep.txt');
  });

  it('reproduces a text file that is not UTF-8 (Latin-1) byte for byte, and the patch stays a valid string', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6e, 0x61, 0xef, 0x76, 0x65, 0x0a]); // "café\nnaïve\n"
    await writeFile(join(worktree, 'latin1.txt'), latin1);
    await writeFile(join(worktree, 'modify-uncommitted.txt'), 'alpha\nbeta\nplain utf-8 ü\n');
    const patch = await extractPatch({ worktreePath: worktree, baseCommit });
    expect(patch).not.toContain('\uFFFD');
    const clone = await freshCloneOfBase('latin1');
    await writeFile(join(clone, '..', 'latin1.patch'), patch);
    await repo.git(['apply', '--index', join(clone, '..', 'latin1.patch')], clone);
    expect(await readFile(join(clone, 'latin1.txt'))).toEqual(latin1);
    expect(await readFile(join(clone, 'modify-uncommitted.txt'), 'utf8')).toBe(
      'alpha\nbeta\nplain utf-8 ü\n',
    );
  });

  it('returns an empty string when nothing changed', async () => {
    expect(await extractPatch({ worktreePath: worktree, baseCommit })).toBe('');
  });

  it('returns an empty string when the agent committed a change and then reverted it', async () => {
    await repo.commit('change', { 'keep.txt': 'changed\n' }, worktree);
    await repo.commit('revert', { 'keep.txt': 'unchanged\n' }, worktree);
    await repo.write({ 'node_modules/x.js': 'ignored\n' }, worktree);
    expect(await extractPatch({ worktreePath: worktree, baseCommit })).toBe('');
  });

  it('refuses a branch name as the base: only the recorded commit SHA is exact', async () => {
    await expect(extractPatch({ worktreePath: worktree, baseCommit: 'main' })).rejects.toThrow(
      /base commit SHA/,
    );
  });

  it('rejects when the worktree is gone', async () => {
    await repo.git(['worktree', 'remove', '--force', worktree]);
    await expect(extractPatch({ worktreePath: worktree, baseCommit })).rejects.toThrow();
  });
});

describe('extractPatch refuses patches that touch what agents may not change', () => {
  let repo: TempGitRepo;
  let baseCommit: string;
  let worktree: string;

  beforeEach(async () => {
    repo = await createTempGitRepo();
    baseCommit = await repo.commit('base', { 'README.md': '# r\n', 'src/a.ts': 'export {};\n' });
    worktree = join(repo.root, '.worktrees', 'agent');
    await repo.git(['worktree', 'add', '--quiet', worktree, '-b', 'agent', baseCommit]);
  });
  afterEach(async () => {
    await repo.cleanup();
  });

  const refusal = async (protectedPaths?: readonly string[]) => {
    const error = await extractPatch({
      worktreePath: worktree,
      baseCommit,
      ...(protectedPaths !== undefined && { protectedPaths }),
    }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PatchRefusedError);
    return (error as PatchRefusedError).problems;
  };

  it("refuses the issue's symlink into the main checkout's .git/hooks, and links into .git or outside", async () => {
    await symlink('../../.git/hooks', join(worktree, 'lnk'));
    await symlink('../.GIT', join(worktree, 'src/up'));
    await symlink('/etc/passwd', join(worktree, 'passwd'));
    await symlink('src/a.ts', join(worktree, 'fine-link'));
    expect(await refusal()).toEqual([
      'lnk: a symlink to ../../.git/hooks, outside the repository',
      'passwd: a symlink to /etc/passwd, outside the repository',
      'src/up: a symlink to ../.GIT, into .GIT, a protected path',
    ]);
  });

  it('refuses protected paths in any case, configured paths and gitlinks, naming each', async () => {
    await repo.write(
      {
        '.Claude/settings.json': '{"hooks":{}}',
        '.npmrc': 'script-shell=/tmp/x\n',
        'Deploy/prod.yml': 'x\n',
        'src/ok.ts': 'ok\n',
      },
      worktree,
    );
    // A repository of its own inside the worktree: `git add --all` records it as a gitlink.
    const nested = join(worktree, 'vendor/nested');
    await repo.git(['init', '--quiet', nested]);
    await repo.git(['commit', '--quiet', '--allow-empty', '-m', 'nested'], nested);
    expect(await refusal(['deploy/'])).toEqual([
      '.Claude/settings.json: .Claude is a protected path',
      '.npmrc: .npmrc is a protected path',
      'Deploy/prod.yml: under the configured protected path deploy',
      'vendor/nested: a nested git repository (gitlink)',
    ]);
  });

  it('names the paths in its message; an ordinary change passes', async () => {
    await repo.write({ '.flotilla/config.json': '{}' }, worktree);
    await expect(extractPatch({ worktreePath: worktree, baseCommit })).rejects.toThrow(
      "the implementor's patch was refused: it touches paths agents may not change: " +
        '.flotilla/config.json: .flotilla is a protected path',
    );
    await rm(join(worktree, '.flotilla'), { recursive: true });
    await repo.write({ 'src/b.ts': 'export const b = 1;\n' }, worktree);
    await expect(extractPatch({ worktreePath: worktree, baseCommit })).resolves.toContain('+++ b/src/b.ts');
  });
});
