import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { runGit } from '../process/run-command.ts';
import { buildGitConfig, prepareSandboxGitDir } from './prepare-sandbox-git-dir.ts';

describe('prepareSandboxGitDir', () => {
  let repo: TempGitRepo;
  let state: string;
  beforeEach(async () => {
    repo = await createTempGitRepo();
    await repo.commit('init', { 'a.txt': 'a\n' });
    await repo.git(['tag', 'v1']);
    await repo.git(['worktree', 'add', '--quiet', '-b', 'flotilla/1', join(repo.root, '.worktrees', '1')]);
    await repo.git(['config', 'user.name', 'Dev "Quoted" Person']);
    await repo.git(['config', 'user.email', 'dev@example.com']);
    state = await mkdtemp(join(tmpdir(), 'flotilla-git-state-'));
  });
  afterEach(async () => {
    await repo.cleanup();
    await rm(state, { recursive: true, force: true });
  });

  it("shares the repository's objects, starts on the worktree's branch and copies its identity", async () => {
    const worktree = join(repo.root, '.worktrees', '1');
    const { gitDir, dotGitFile } = await prepareSandboxGitDir(worktree, state);
    const head = (await repo.git(['rev-parse', 'HEAD'])).trim();
    expect(await readFile(dotGitFile, 'utf8')).toBe(`gitdir: ${gitDir}\n`);
    expect(await readFile(join(gitDir, 'HEAD'), 'utf8')).toBe('ref: refs/heads/flotilla/1\n');
    expect(await readFile(join(gitDir, 'refs', 'heads', 'flotilla', '1'), 'utf8')).toBe(`${head}\n`);
    expect(await readFile(join(gitDir, 'objects', 'info', 'alternates'), 'utf8')).toBe(
      `${join(repo.root, '.git', 'objects')}\n`,
    );
    expect(await readFile(join(gitDir, 'packed-refs'), 'utf8')).toContain(`${head} refs/tags/v1`);
    const config = await readFile(join(gitDir, 'config'), 'utf8');
    expect(config).toContain('name = "Dev \\"Quoted\\" Person"');
    expect(config).toContain('email = "dev@example.com"');
    // git reads it back as written, and finds the commits through the alternates.
    const inSandbox = async (args: string[]) =>
      (
        await runGit(args, { cwd: worktree, env: { GIT_DIR: gitDir, GIT_WORK_TREE: worktree } })
      ).stdout.trim();
    expect(await inSandbox(['config', 'user.name'])).toBe('Dev "Quoted" Person');
    expect(await inSandbox(['log', '--format=%s'])).toBe('init');
    expect(await inSandbox(['status', '--porcelain'])).toBe('');
  });

  it('writes a config git accepts, with a neutral identity when given one', () => {
    const config = buildGitConfig({
      name: 'Flotilla Agent',
      email: 'agent@flotilla.invalid',
      objectFormat: 'sha1',
    });
    expect(config).toBe(
      '[core]\n\trepositoryformatversion = 0\n\tbare = false\n[user]\n\tname = "Flotilla Agent"\n\temail = "agent@flotilla.invalid"\n[commit]\n\tgpgsign = false\n',
    );
    expect(buildGitConfig({ name: 'a', email: 'b', objectFormat: 'sha256' })).toContain(
      'objectformat = sha256',
    );
  });
});
