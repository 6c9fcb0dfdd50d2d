import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { createRecordingLogger } from '../logging/logger.ts';
import { createWorktreeManager, type WorktreeManagerOptions } from './create-worktree-manager.ts';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe('createWorktreeManager', () => {
  let repo: TempGitRepo;
  let baseCommit: string;
  const cleanups: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    repo = await createTempGitRepo();
    baseCommit = await repo.commit('base', { 'README.md': '# Project\n', 'src/index.ts': 'export {};\n' });
  });
  afterEach(async () => {
    await repo.cleanup();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  const manager = (overrides: Partial<WorktreeManagerOptions> = {}) => {
    const logger = createRecordingLogger();
    const worktrees = createWorktreeManager({
      repoRoot: repo.root,
      defaultBranch: 'main',
      setupCommand: 'none',
      logger,
      ...overrides,
    });
    return { worktrees, logger };
  };
  const listedPaths = async () =>
    (await repo.git(['worktree', 'list', '--porcelain']))
      .split('\n')
      .filter((line) => line.startsWith('worktree '))
      .map((line) => line.slice('worktree '.length));
  const branches = async () => (await repo.git(['branch', '--format=%(refname:short)'])).trim().split('\n');

  it('creates .worktrees/<branch> on a fresh branch from the default branch and records the base commit', async () => {
    const { worktrees } = manager();
    const worktree = await worktrees.create('flotilla/12');
    expect(worktree).toEqual({
      branchName: 'flotilla/12',
      path: join(repo.root, '.worktrees', 'flotilla/12'),
      baseCommit,
    });
    expect(await readFile(join(worktree.path, 'README.md'), 'utf8')).toBe('# Project\n');
    expect((await repo.git(['rev-parse', '--abbrev-ref', 'HEAD'], worktree.path)).trim()).toBe('flotilla/12');
    expect(await listedPaths()).toContain(worktree.path);
  });

  it('records the base commit also when the repository root is a linked worktree (its .git is a file)', async () => {
    // Refs then live in the main repository's git directory: the in-process read finds nothing, git is asked.
    const linkedRoot = await mkdtemp(join(tmpdir(), 'flotilla-linked-'));
    cleanups.push(() => rm(linkedRoot, { recursive: true, force: true }));
    const linked = join(linkedRoot, 'repo');
    await repo.git(['worktree', 'add', '--quiet', '-b', 'side', linked, 'main']);
    const sideTip = await repo.commit('on side', { 'side.txt': 'side\n' }, linked);
    const worktrees = createWorktreeManager({
      repoRoot: linked,
      defaultBranch: 'side',
      setupCommand: 'none',
      logger: createRecordingLogger(),
    });
    const worktree = await worktrees.create('flotilla/5');
    expect(worktree.baseCommit).toBe(sideTip);
    expect(sideTip).not.toBe(baseCommit);
    await worktrees.remove('flotilla/5');
  });

  it('records the commit the worktree started at, even when the default branch moves later', async () => {
    const { worktrees } = manager();
    const worktree = await worktrees.create('flotilla/1');
    const moved = await repo.commit('later', { 'LATER.md': 'later\n' });
    expect(moved).not.toBe(baseCommit);
    expect(worktree.baseCommit).toBe(baseCommit);
  });

  it('Given a local branch already exists at <branchName>, when the worktree is created with -B, then the branch is force-reset to defaultBranch and the worktree starts clean', async () => {
    await repo.git(['checkout', '--quiet', '-b', 'flotilla/3']);
    const oldTip = await repo.commit('old attempt', { 'old.txt': 'old\n' });
    await repo.git(['checkout', '--quiet', 'main']);
    const { worktrees } = manager();
    const worktree = await worktrees.create('flotilla/3');
    expect((await repo.git(['rev-parse', 'flotilla/3'])).trim()).toBe(baseCommit);
    expect(oldTip).not.toBe(baseCommit);
    expect(await exists(join(worktree.path, 'old.txt'))).toBe(false);
    expect(await repo.git(['status', '--porcelain'], worktree.path)).toBe('');
  });

  it('Given a stale worktree exists at the target path from a previous interrupted run, when an Implementor session starts, then the stale worktree is removed before creating the new one', async () => {
    const stalePath = join(repo.root, '.worktrees', 'flotilla/4');
    await repo.git(['worktree', 'add', '--quiet', stalePath, '-b', 'flotilla/4', 'main']);
    await repo.commit('half-done work', { 'half.txt': 'half\n' }, stalePath);
    await writeFile(join(stalePath, 'dirty.txt'), 'uncommitted\n');
    const { worktrees, logger } = manager();
    const worktree = await worktrees.create('flotilla/4');
    expect(worktree.path).toBe(stalePath);
    expect(worktree.baseCommit).toBe(baseCommit);
    expect(await exists(join(stalePath, 'dirty.txt'))).toBe(false);
    expect(await exists(join(stalePath, 'half.txt'))).toBe(false);
    expect(logger.records.some((record) => record.message === 'Removing stale worktree')).toBe(true);
  });

  it('removes a leftover directory at the path that git no longer knows as a worktree', async () => {
    const leftover = join(repo.root, '.worktrees', 'flotilla/5');
    await mkdir(leftover, { recursive: true });
    await writeFile(join(leftover, 'junk.txt'), 'junk');
    const { worktrees } = manager();
    const worktree = await worktrees.create('flotilla/5');
    expect(await exists(join(worktree.path, 'junk.txt'))).toBe(false);
    expect(await exists(join(worktree.path, 'README.md'))).toBe(true);
  });

  it('rejects with the underlying error when the stale worktree cannot be removed, and creates nothing', async () => {
    const stalePath = join(repo.root, '.worktrees', 'flotilla/6');
    await repo.git(['worktree', 'add', '--quiet', stalePath, '-b', 'flotilla/6', 'main']);
    await writeFile(join(stalePath, 'marker.txt'), 'still here');
    // A locked worktree resists `git worktree remove --force` (it takes --force twice).
    await repo.git(['worktree', 'lock', '--reason', 'in use', stalePath]);
    const { worktrees } = manager();
    await expect(worktrees.create('flotilla/6')).rejects.toThrow(
      new RegExp(`Could not remove the stale worktree at ${stalePath}: .*locked`, 's'),
    );
    expect(await readFile(join(stalePath, 'marker.txt'), 'utf8')).toBe('still here');
  });

  it("removes a worktree a killed run left locked (its pid is gone), never one a live process's run holds", async () => {
    // A run's process killed with SIGKILL (a worker slot, `flotilla run`) leaves its lock behind.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const live = spawn('sleep', ['600']);
    cleanups.push(async () => void live.kill('SIGKILL'));
    for (const [branch, pid] of [
      ['flotilla/16', dead],
      ['flotilla/17', live.pid],
    ] as const) {
      const path = join(repo.root, '.worktrees', branch);
      await repo.git(['worktree', 'add', '--quiet', path, '-b', branch, 'main']);
      await writeFile(join(path, 'marker.txt'), 'left behind');
      await repo.git(['worktree', 'lock', '--reason', `flotilla: agent run in progress (pid ${pid})`, path]);
    }
    const { worktrees } = manager();
    const recreated = await worktrees.create('flotilla/16');
    expect(await exists(join(recreated.path, 'marker.txt'))).toBe(false);
    await expect(worktrees.create('flotilla/17')).rejects.toThrow(
      /Could not remove the stale worktree.*locked/s,
    );
    expect(await exists(join(repo.root, '.worktrees', 'flotilla/17', 'marker.txt'))).toBe(true);
  });

  it('runs the setup command in the new worktree through a shell', async () => {
    const { worktrees } = manager({ setupCommand: 'pwd > setup-ran.txt && echo "$0" >> setup-ran.txt' });
    const worktree = await worktrees.create('flotilla/7');
    const [cwd, shell] = (await readFile(join(worktree.path, 'setup-ran.txt'), 'utf8')).trim().split('\n');
    expect(cwd).toBe(worktree.path);
    expect(shell).toBe('sh');
  });

  it('skips the setup command when asked (a checkout that builds nothing)', async () => {
    const { worktrees } = manager({ setupCommand: 'touch setup-ran.txt' });
    const worktree = await worktrees.create('agent/reviewer/1', { setup: false });
    expect(existsSync(join(worktree.path, 'setup-ran.txt'))).toBe(false);
    expect(existsSync(join(worktree.path, 'README.md'))).toBe(true);
  });

  it('Given startAgent is called with ImplementorStartParams, when worktree setup fails (yarn install error), then the promise rejects, the worktree is removed, and no agent session is created', async () => {
    const { worktrees } = manager({
      setupCommand: 'echo "resolving packages"; echo "error: no such package" >&2; exit 7',
    });
    const error = await worktrees.create('flotilla/8').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('Worktree setup command');
    expect(message).toContain('exit code 7');
    expect(message).toContain('error: no such package');
    expect(message).toContain('resolving packages');
    expect(await exists(join(repo.root, '.worktrees', 'flotilla/8'))).toBe(false);
    expect(await listedPaths()).toEqual([
      await repo.git(['rev-parse', '--show-toplevel']).then((s) => s.trim()),
    ]);
    expect(await branches()).toEqual(['main']);
  });

  it('fails a setup command that runs past its timeout and removes the worktree', async () => {
    const { worktrees } = manager({ setupCommand: 'echo waiting; sleep 30', setupTimeoutMs: 300 });
    await expect(worktrees.create('flotilla/9')).rejects.toThrow(/timed out after 300 ms/);
    expect(await exists(join(repo.root, '.worktrees', 'flotilla/9'))).toBe(false);
    expect(await branches()).toEqual(['main']);
  });

  it('detects the setup command from the lockfile when none is configured', async () => {
    await repo.commit('lockfile', { 'package-lock.json': '{}\n' });
    const fakeBin = await mkdtemp(join(tmpdir(), 'flotilla-bin-'));
    cleanups.push(() => rm(fakeBin, { recursive: true, force: true }));
    await writeFile(join(fakeBin, 'npm'), '#!/bin/sh\necho "npm $*" > npm-ran.txt\n');
    await chmod(join(fakeBin, 'npm'), 0o755);
    const { worktrees } = manager({
      setupCommand: undefined,
      setupEnv: { ...process.env, PATH: `${fakeBin}:${process.env.PATH ?? ''}` },
    });
    const worktree = await worktrees.create('flotilla/10');
    expect(await readFile(join(worktree.path, 'npm-ran.txt'), 'utf8')).toBe('npm ci\n');
  });

  it('runs no setup when none is configured and there is no lockfile', async () => {
    const { worktrees, logger } = manager({ setupCommand: undefined });
    await worktrees.create('flotilla/11');
    expect(logger.records.some((record) => record.message === 'Running worktree setup command')).toBe(false);
  });

  it.each(['../escape', 'a..b', '-x', '', 'has space', '.'])(
    'rejects the invalid branch name %j',
    async (name) => {
      const { worktrees } = manager();
      await expect(worktrees.create(name)).rejects.toThrow(/Invalid branch name/);
      expect(await exists(join(repo.root, 'escape'))).toBe(false);
    },
  );

  it('rejects naming the default branch when it does not exist, leaving nothing behind', async () => {
    const { worktrees } = manager({ defaultBranch: 'trunk' });
    await expect(worktrees.create('flotilla/13')).rejects.toThrow(
      /Could not create the worktree for flotilla\/13 from trunk/,
    );
    expect(await exists(join(repo.root, '.worktrees', 'flotilla/13'))).toBe(false);
  });

  it('creates worktrees concurrently without tripping over git locks', async () => {
    const { worktrees } = manager();
    const created = await Promise.all(['a', 'b', 'c', 'd'].map((id) => worktrees.create(`flotilla/${id}`)));
    expect(created.map((worktree) => worktree.baseCommit)).toEqual([
      baseCommit,
      baseCommit,
      baseCommit,
      baseCommit,
    ]);
  });

  it('Given an Implementor session completes (success or failure), when cleanup runs, then both the worktree and the local branch are removed', async () => {
    const { worktrees } = manager();
    const worktree = await worktrees.create('flotilla/14');
    await repo.commit('agent work', { 'work.txt': 'work\n' }, worktree.path);
    await writeFile(join(worktree.path, 'untracked.txt'), 'x');
    await worktrees.remove('flotilla/14');
    expect(await exists(worktree.path)).toBe(false);
    expect(await listedPaths()).not.toContain(worktree.path);
    expect(await branches()).toEqual(['main']);
  });

  it('removes the empty directories a nested worktree path needed, and .worktrees itself when it made it once settled', async () => {
    const { worktrees } = manager();
    await worktrees.create('agent/flotilla/7');
    const sibling = await worktrees.create('agent/flotilla/8');
    await worktrees.remove('agent/flotilla/7');
    // Still in use by the sibling: kept.
    expect(await exists(join(repo.root, '.worktrees/agent/flotilla'))).toBe(true);
    await worktrees.remove('agent/flotilla/8');
    expect(await exists(sibling.path)).toBe(false);
    // Empty, but kept while runs may go on: a run's sandbox being set up hides it (a vanished mount point fails).
    expect(await readdir(join(repo.root, '.worktrees'))).toEqual([]);
    await worktrees.settle();
    expect(await exists(join(repo.root, '.worktrees'))).toBe(false);
  });

  it('keeps a .worktrees it did not create, and whatever else is in it, when removing its parents', async () => {
    await mkdir(join(repo.root, '.worktrees/mine'), { recursive: true });
    await writeFile(join(repo.root, '.worktrees/mine/notes.txt'), 'mine\n');
    await mkdir(join(repo.root, '.worktrees/empty-of-mine'));
    const { worktrees } = manager();
    await worktrees.create('agent/flotilla/9');
    await worktrees.remove('agent/flotilla/9');
    expect(await exists(join(repo.root, '.worktrees/agent'))).toBe(false);
    expect(await readFile(join(repo.root, '.worktrees/mine/notes.txt'), 'utf8')).toBe('mine\n');
    expect(await exists(join(repo.root, '.worktrees/empty-of-mine'))).toBe(true);
  });

  it('removes idempotently and quietly when there is nothing to remove', async () => {
    const { worktrees, logger } = manager();
    await worktrees.create('flotilla/15');
    await worktrees.remove('flotilla/15');
    await worktrees.remove('flotilla/15');
    await worktrees.remove('never-created');
    expect(logger.records.filter((record) => record.level === 'warn')).toEqual([]);
  });

  it('never throws from remove, it logs instead', async () => {
    const logger = createRecordingLogger();
    const worktrees = createWorktreeManager({
      repoRoot: join(tmpdir(), 'flotilla-no-such-repo'),
      defaultBranch: 'main',
      setupCommand: 'none',
      logger,
    });
    await expect(worktrees.remove('flotilla/16')).resolves.toBeUndefined();
    expect(logger.records.some((record) => record.level === 'warn')).toBe(true);
  });

  it('reaps every worktree under .worktrees (with its branch) and prunes, leaving other worktrees alone', async () => {
    const { worktrees } = manager();
    const first = await worktrees.create('flotilla/20');
    const second = await worktrees.create('flotilla/21');
    await writeFile(join(second.path, 'dirty.txt'), 'x');
    const outside = await mkdtemp(join(tmpdir(), 'flotilla-outside-'));
    cleanups.push(() => rm(outside, { recursive: true, force: true }));
    const outsidePath = join(outside, 'wt');
    await repo.git(['worktree', 'add', '--quiet', outsidePath, '-b', 'mine', 'main']);
    // A worktree whose directory vanished is only a stale record: prune drops it.
    const vanished = join(outside, 'vanished');
    await repo.git(['worktree', 'add', '--quiet', vanished, '-b', 'vanished', 'main']);
    await rm(vanished, { recursive: true, force: true });

    const nested = await worktrees.create('agent/flotilla/22');

    // A new process (after a kill) reaps: it did not make .worktrees, so that stays.
    const reaped = await manager().worktrees.reapStaleWorktrees();

    expect(reaped.sort()).toEqual([first.path, second.path, nested.path].sort());
    expect(await exists(join(repo.root, '.worktrees/agent'))).toBe(false);
    expect(await exists(join(repo.root, '.worktrees/flotilla'))).toBe(false);
    expect(await exists(join(repo.root, '.worktrees'))).toBe(true);
    expect(await exists(first.path)).toBe(false);
    expect(await exists(second.path)).toBe(false);
    const remaining = await listedPaths();
    expect(remaining).toContain(outsidePath);
    expect(remaining).not.toContain(vanished);
    expect(remaining).toHaveLength(2);
    expect((await branches()).sort()).toEqual(['main', 'mine', 'vanished']);
  });

  describe('prepareAhead and removeBehind', () => {
    const sparesDir = () => join(repo.root, '.worktrees', 'agent', 'ahead');
    type Made = ReturnType<typeof manager>;
    /** Every spare's path in the order they were prepared (the order `create` takes them), once all are ready. */
    const preparedSpares = async ({ worktrees, logger }: Made) => {
      await worktrees.idle();
      return logger.records
        .filter((record) => record.message === 'Spare worktree prepared')
        .map((record) => record.fields.path as string);
    };
    /** A first run that has its agent under way (prepareSpare) and has ended (remove): spares ready. */
    const afterFirstRun = async (made: Made) => {
      const first = await made.worktrees.create('flotilla/1');
      made.worktrees.prepareSpare();
      await made.worktrees.remove(first.branchName);
      return preparedSpares(made);
    };

    it('hands the next create the oldest spare, at the tip, under its generated name, and sets it up', async () => {
      const made = manager({ prepareAhead: true, setupCommand: 'touch setup-ran.txt' });
      const { worktrees } = made;
      const [oldest] = await afterFirstRun(made);
      const second = await worktrees.create('flotilla/2');
      expect(second.path).toBe(oldest);
      expect(second.branchName).toMatch(/^agent\/ahead\/[0-9a-f]{8}$/);
      expect(second.path).toBe(worktrees.pathFor(second.branchName));
      expect(second.baseCommit).toBe(baseCommit);
      expect((await repo.git(['rev-parse', 'HEAD'], second.path)).trim()).toBe(baseCommit);
      expect(existsSync(join(second.path, 'setup-ran.txt'))).toBe(true);
      expect(existsSync(worktrees.pathFor('flotilla/2'))).toBe(false);
      await worktrees.settle();
    });

    it("prepares one spare when asked and there is none; a run's end tops them up to two; none without prepareAhead", async () => {
      const made = manager({ prepareAhead: true });
      const { worktrees: ahead } = made;
      const first = await ahead.create('flotilla/1');
      await ahead.idle();
      expect(await exists(sparesDir())).toBe(false);
      ahead.prepareSpare();
      ahead.prepareSpare();
      await ahead.idle();
      expect(await readdir(sparesDir())).toHaveLength(1);
      await ahead.remove(first.branchName);
      await ahead.idle();
      expect(await readdir(sparesDir())).toHaveLength(2);

      const second = await ahead.create('flotilla/2');
      ahead.prepareSpare(); // one is left: nothing to do while this run's agent works
      await ahead.idle();
      expect(await readdir(sparesDir())).toHaveLength(2); // the taken one and the one left
      await ahead.remove(second.branchName);
      await ahead.idle();
      expect(await readdir(sparesDir())).toHaveLength(2);
      expect(await preparedSpares(made)).toHaveLength(3);
      await ahead.settle();
      expect(await exists(join(repo.root, '.worktrees'))).toBe(false);

      const plain = manager().worktrees;
      const other = await plain.create('flotilla/3');
      plain.prepareSpare();
      await plain.remove(other.branchName);
      await plain.idle();
      await plain.settle();
      expect(await exists(join(repo.root, '.worktrees'))).toBe(false);
      expect(await branches()).toEqual(['main']);
    });

    it('refreshes a spare made before the default branch moved to the new tip, in place and clean', async () => {
      const made = manager({ prepareAhead: true });
      const { worktrees, logger } = made;
      const [oldest] = await afterFirstRun(made);
      const moved = await repo.commit('moved', { 'MOVED.md': 'moved\n', 'README.md': '# Moved\n' });
      const second = await worktrees.create('flotilla/2');
      expect(second.path).toBe(oldest);
      expect(second.baseCommit).toBe(moved);
      expect((await repo.git(['rev-parse', 'HEAD'], second.path)).trim()).toBe(moved);
      expect((await repo.git(['rev-parse', second.branchName])).trim()).toBe(moved);
      expect(await readFile(join(second.path, 'README.md'), 'utf8')).toBe('# Moved\n');
      expect(await repo.git(['status', '--porcelain', '--ignored'], second.path)).toBe('');
      expect(logger.records.map((record) => record.message)).toContain(
        'Worktree created (prepared ahead, refreshed to the tip)',
      );
      await worktrees.remove(second.branchName);
      await worktrees.settle();
      expect(await branches()).toEqual(['main']);
    });

    it('discards a stale spare it cannot refresh, and creates the usual way', async () => {
      const made = manager({ prepareAhead: true });
      const { worktrees, logger } = made;
      const [oldest = ''] = await afterFirstRun(made);
      const moved = await repo.commit('moved', { 'MOVED.md': 'moved\n' });
      // A held index lock in the spare's admin directory makes git's checkout there fail.
      const adminDir = (await repo.git(['rev-parse', '--absolute-git-dir'], oldest)).trim();
      await writeFile(join(adminDir, 'index.lock'), '');
      const second = await worktrees.create('flotilla/2');
      expect(second).toEqual({
        branchName: 'flotilla/2',
        path: worktrees.pathFor('flotilla/2'),
        baseCommit: moved,
      });
      expect(logger.records.map((record) => record.message)).toContain(
        'Could not refresh a stale spare worktree; discarding it',
      );
      await worktrees.remove(second.branchName);
      await worktrees.settle();
      expect(await exists(oldest)).toBe(false);
      expect(await branches()).toEqual(['main']);
    });

    it('drops a spare whose preparation failed, logs it, and creates the usual way', async () => {
      // A branch named `agent/ahead` makes every `agent/ahead/<hex>` branch impossible for git.
      await repo.git(['branch', 'agent/ahead', 'main']);
      const made = manager({ prepareAhead: true });
      const { worktrees, logger } = made;
      expect(await afterFirstRun(made)).toEqual([]);
      expect(logger.records.some((record) => record.message === 'Could not prepare a spare worktree')).toBe(
        true,
      );
      const second = await worktrees.create('flotilla/2');
      expect(second.branchName).toBe('flotilla/2');
      expect(await exists(join(second.path, 'README.md'))).toBe(true);
      await worktrees.remove(second.branchName);
      await worktrees.settle();
      expect((await branches()).sort()).toEqual(['agent/ahead', 'main']);
    });

    it('gives concurrent creates distinct worktrees: the spares, then one made', async () => {
      const made = manager({ prepareAhead: true });
      const { worktrees } = made;
      const spares = await afterFirstRun(made);
      expect(spares).toHaveLength(2);
      const created = await Promise.all(['a', 'b', 'c'].map((name) => worktrees.create(`flotilla/${name}`)));
      const paths = created.map((worktree) => worktree.path);
      expect(new Set(paths).size).toBe(3);
      expect(paths.slice(0, 2)).toEqual(spares);
      expect(paths[2]).toBe(worktrees.pathFor('flotilla/c'));
      for (const worktree of created) {
        expect(await exists(join(worktree.path, 'README.md'))).toBe(true);
        expect(worktree.baseCommit).toBe(baseCommit);
      }
      await worktrees.settle();
    });

    it('with removeBehind, remove resolves once queued and settle waits for it: worktree and branch gone', async () => {
      const { worktrees, logger } = manager({ removeBehind: true });
      const worktree = await worktrees.create('flotilla/1');
      await worktrees.remove(worktree.branchName);
      // The removal runs git processes; none can have finished before the resolved promise's continuation.
      expect(logger.records.some((record) => record.message === 'Worktree removed')).toBe(false);
      await worktrees.settle();
      expect(logger.records.some((record) => record.message === 'Worktree removed')).toBe(true);
      expect(await exists(worktree.path)).toBe(false);
      expect(await listedPaths()).not.toContain(worktree.path);
      expect(await branches()).toEqual(['main']);
    });

    it('settle leaves no spare (and no .worktrees it made), twice over, and create works after it', async () => {
      const { worktrees } = manager({ prepareAhead: true, removeBehind: true });
      const first = await worktrees.create('flotilla/1');
      worktrees.prepareSpare();
      await worktrees.remove(first.branchName);
      await worktrees.settle();
      await worktrees.settle();
      expect(await exists(join(repo.root, '.worktrees'))).toBe(false);
      expect(await branches()).toEqual(['main']);
      expect(await listedPaths()).toHaveLength(1);

      const again = await worktrees.create('flotilla/2');
      worktrees.prepareSpare();
      expect(await exists(join(again.path, 'README.md'))).toBe(true);
      await worktrees.remove(again.branchName);
      await worktrees.settle();
      expect(await exists(join(repo.root, '.worktrees'))).toBe(false);
      expect(await branches()).toEqual(['main']);
    });

    it("does not make the spares a run's end queued once settle has begun, and makes them again after", async () => {
      const made = manager({ prepareAhead: true, removeBehind: true });
      const { worktrees } = made;
      const first = await worktrees.create('flotilla/1');
      await worktrees.remove(first.branchName); // a run cancelled at shutdown: its end tops the spares up
      await worktrees.settle();
      expect(await preparedSpares(made)).toEqual([]);
      expect(await exists(join(repo.root, '.worktrees'))).toBe(false);

      const second = await worktrees.create('flotilla/2');
      await worktrees.remove(second.branchName);
      expect(await preparedSpares(made)).toHaveLength(2);
      await worktrees.settle();
      expect(await branches()).toEqual(['main']);
    });

    it('spares left by a killed process are reaped at the next start, with their branches', async () => {
      const spares = await afterFirstRun(manager({ prepareAhead: true }));
      expect(spares).toHaveLength(2);
      // No settle: the process "dies" here. The next one reaps.
      const reaped = await manager().worktrees.reapStaleWorktrees();
      expect(reaped.sort()).toEqual([...spares].sort());
      for (const path of spares) expect(await exists(path)).toBe(false);
      expect(await branches()).toEqual(['main']);
    });
  });
});
