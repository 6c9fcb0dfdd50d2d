import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../../test/support/shared/create-temp-git-repo.ts';
import { createRecordingLogger } from '../../../logging/logger.ts';
import { reapLocalScratch } from './reap-local-scratch.ts';

let repo: TempGitRepo;
let scratchDir: string;
let outside: string;

beforeEach(async () => {
  repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# sample\n' });
  scratchDir = join(repo.root, '.flotilla', 'tmp');
  await mkdir(scratchDir, { recursive: true });
  outside = await mkdtemp(join(tmpdir(), 'flotilla-reap-outside-'));
});

afterEach(async () => {
  await repo.cleanup();
  await rm(outside, { recursive: true, force: true });
});

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

async function listedWorktrees(): Promise<string[]> {
  return (await repo.git(['worktree', 'list', '--porcelain']))
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length));
}

describe('reapLocalScratch', () => {
  it('removes every checks worktree and apply dir a killed run left, with their git records, and nothing else', async () => {
    // A checks run killed mid-command: registered, files the command made read-only inside.
    const running = join(scratchDir, 'checks-running');
    await repo.git(['worktree', 'add', '--quiet', '--detach', running, 'main']);
    await writeFile(join(running, 'output.txt'), 'half\n');
    await chmod(running, 0o555);
    // Killed inside `git worktree add`: git leaves the worktree locked ("initializing"); prune skips those.
    const initializing = join(scratchDir, 'checks-initializing');
    await repo.git(['worktree', 'add', '--quiet', '--detach', initializing, 'main']);
    await repo.git(['worktree', 'lock', '--reason', 'initializing', initializing]);
    // Killed inside removal: the directory is gone, a locked record stays.
    const halfRemoved = join(scratchDir, 'checks-half-removed');
    await repo.git(['worktree', 'add', '--quiet', '--detach', halfRemoved, 'main']);
    await repo.git(['worktree', 'lock', halfRemoved]);
    await rm(halfRemoved, { recursive: true, force: true });
    // Killed before `git worktree add` ran: just the mkdtemp directory.
    const unregistered = join(scratchDir, 'checks-unregistered');
    await mkdir(unregistered);
    // Killed inside createBranchFromPatch: the temporary index and the patch file.
    const apply = join(scratchDir, 'apply-killed');
    await mkdir(apply);
    await writeFile(join(apply, 'index'), 'DIRC');
    await writeFile(join(apply, 'revision.patch'), 'diff --git a/x b/x\n');

    // Not ours: someone's worktree elsewhere, an agent worktree (reaped by the worktree manager), other files.
    const mine = join(outside, 'mine');
    await repo.git(['worktree', 'add', '--quiet', '--detach', mine, 'main']);
    const agent = join(repo.root, '.worktrees', 'agent', 'flotilla', '3');
    await repo.git(['worktree', 'add', '--quiet', '-b', 'agent/flotilla/3', agent, 'main']);
    await mkdir(join(scratchDir, 'notes'));
    await writeFile(join(scratchDir, 'notes', 'keep.txt'), 'keep\n');
    await writeFile(join(repo.root, '.flotilla', 'flotilla.db'), 'db');

    const reaped = await reapLocalScratch({ repoRoot: repo.root, logger: createRecordingLogger() });

    expect(reaped.worktrees.sort()).toEqual([halfRemoved, initializing, running, unregistered].sort());
    expect(reaped.scratchDirs).toEqual([apply]);
    expect(await readdir(scratchDir)).toEqual(['notes']);
    expect((await listedWorktrees()).sort()).toEqual([agent, mine, repo.root].sort());
    expect((await readdir(join(repo.root, '.git', 'worktrees'))).sort()).toEqual(['3', 'mine']);
    expect(await exists(join(repo.root, '.flotilla', 'flotilla.db'))).toBe(true);
    expect(await exists(join(agent, 'README.md'))).toBe(true);
  });

  it('finds nothing to do in a repository without a scratch dir', async () => {
    await rm(join(repo.root, '.flotilla'), { recursive: true, force: true });
    const reaped = await reapLocalScratch({ repoRoot: repo.root, logger: createRecordingLogger() });
    expect(reaped).toEqual({ worktrees: [], scratchDirs: [] });
    expect(await listedWorktrees()).toEqual([repo.root]);
  });
});
