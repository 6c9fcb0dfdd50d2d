import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempGitRepo, type TempGitRepo } from '../../../../test/support/shared/create-temp-git-repo.ts';
import { isProcessRunning } from '../../../../test/support/shared/is-process-running.ts';
import type { runCommand } from '../../../process/run-command.ts';
import { type RunLocalChecksParams, runLocalChecks } from './run-local-checks.ts';

let repo: TempGitRepo;
let scratch: string;
let logsDir: string;
let worktreeParentDir: string;
let revision: string;

beforeEach(async () => {
  repo = await createTempGitRepo();
  await repo.commit('base', { 'README.md': '# sample\n', 'check.sh': 'echo checking\n' });
  await repo.git(['checkout', '--quiet', '-b', 'flotilla/1']);
  revision = await repo.commit('revision', { 'feature.txt': 'from the revision\n' });
  await repo.git(['checkout', '--quiet', 'main']);
  scratch = await mkdtemp(join(tmpdir(), 'flotilla-checks-test-'));
  logsDir = join(scratch, 'logs');
  worktreeParentDir = join(scratch, 'worktrees');
  await mkdir(worktreeParentDir);
});

afterEach(async () => {
  await repo.cleanup();
  await rm(scratch, { recursive: true, force: true });
});

function checks(command: string | null, extra: Partial<RunLocalChecksParams> = {}) {
  return runLocalChecks({
    repoRoot: repo.root,
    headSHA: revision,
    command,
    timeoutMs: 10_000,
    logsDir,
    worktreeParentDir,
    ...extra,
  } as RunLocalChecksParams);
}

/** Only the main checkout is registered, and no temporary directory is left behind. */
async function expectNoWorktreeLeft(): Promise<void> {
  const listed = (await repo.git(['worktree', 'list', '--porcelain']))
    .split('\n')
    .filter((line) => line.startsWith('worktree '));
  expect(listed).toHaveLength(1);
  expect(await readdir(worktreeParentDir)).toEqual([]);
  expect(await readdir(join(repo.root, '.git', 'worktrees')).catch(() => [])).toEqual([]);
}

describe('runLocalChecks', () => {
  it.each([null, '', '   '])(
    'passes without a worktree or log when no command is configured (%j)',
    async (command) => {
      const result = await checks(command);
      expect(result).toMatchObject({ status: 'success', reason: null, logPath: null });
      await expectNoWorktreeLeft();
      expect(await readdir(scratch)).toEqual(['worktrees']); // no logs dir either
    },
  );

  it('passes when the command succeeds, runs on the revision commit, keeps the log and removes the worktree', async () => {
    const result = await checks('cat feature.txt && git rev-parse HEAD && echo "CI=$CI"');

    expect(result.status).toBe('success');
    expect(result.reason).toBeNull();
    expect(result.durationMs).toBeGreaterThan(0);
    const log = await readFile(result.logPath!, 'utf8');
    expect(log).toContain('from the revision');
    expect(log).toContain(revision);
    expect(log).toContain('CI=true');
    expect(log).toContain('[flotilla] checks passed');
    expect(result.logPath!.startsWith(logsDir)).toBe(true);
    await expectNoWorktreeLeft();
  });

  it('checks a branch head when given a branch name', async () => {
    const result = await checks('test "$(git rev-parse HEAD)" = "$EXPECTED"', {
      headSHA: undefined,
      branchName: 'flotilla/1',
      env: { ...process.env, EXPECTED: revision },
    });
    expect(result.status).toBe('success');
    await expectNoWorktreeLeft();
  });

  it('fails with the exit code and the last lines of output in the reason, full output in the log', async () => {
    const command = 'for i in $(seq 1 30); do echo "line $i"; done; echo "boom on stderr" >&2; exit 3';
    const result = await checks(command);

    expect(result.status).toBe('failure');
    expect(result.reason).toMatch(/^`for i in .*` exited with code 3\n/);
    expect(result.reason).toContain('boom on stderr');
    expect(result.reason).toContain('line 30');
    expect(result.reason).not.toContain('line 20\n');
    const log = await readFile(result.logPath!, 'utf8');
    expect(log).toContain('line 1\n');
    expect(log).toContain('boom on stderr');
    expect(log).toContain('[flotilla] checks failed');
    await expectNoWorktreeLeft();
  });

  it('fails on a timeout, kills the command and everything it started, and removes the worktree', async () => {
    const pidFile = join(scratch, 'pid');
    const result = await checks(`echo started; sleep 30 & echo $! > "${pidFile}"; wait`, { timeoutMs: 500 });

    expect(result.status).toBe('failure');
    expect(result.reason).toMatch(/timed out after 500 ms\nstarted$/);
    await expectProcessGone(Number(await readFile(pidFile, 'utf8')));
    await expectNoWorktreeLeft();
  });

  it('rejects when cancelled, after killing the command and everything it started and removing the worktree', async () => {
    const pidFile = join(scratch, 'pid');
    const controller = new AbortController();
    const running = checks(`sleep 30 & echo $! > "${pidFile}"; echo started; wait`, {
      timeoutMs: 60_000,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await waitForFile(pidFile);
    controller.abort(new Error('shutting down'));

    const error = await running;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('shutting down');
    await expectProcessGone(Number(await readFile(pidFile, 'utf8')));
    await expectNoWorktreeLeft();
    const [logName] = await readdir(logsDir);
    expect(readFileSync(join(logsDir, logName ?? ''), 'utf8')).toContain('[flotilla] checks cancelled');
  });

  it('rejects at once, creating nothing, when the signal was aborted before', async () => {
    const error = await checks('true', { signal: AbortSignal.abort(new Error('stopped')) }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe('stopped');
    expect(await readdir(logsDir).catch(() => [])).toEqual([]);
    await expectNoWorktreeLeft();
  });

  it('terminates what a passing command left running in the background', async () => {
    const pidFile = join(scratch, 'pid');
    const result = await checks(`sleep 30 & echo $! > "${pidFile}"; echo done`);
    expect(result.status).toBe('success');
    await expectProcessGone(Number(await readFile(pidFile, 'utf8')));
    await expectNoWorktreeLeft();
  });

  it('fails (not throws) when the command cannot start', async () => {
    const result = await checks('true', { env: { PATH: join(scratch, 'no-such-bin') } });
    expect(result.status).toBe('failure');
    expect(result.reason).toMatch(/could not start/);
    await expectNoWorktreeLeft();
  });

  it('removes the worktree when running the command throws unexpectedly', async () => {
    let sawWorktree = false;
    const failing: typeof runCommand = async (_file, _args, options) => {
      sawWorktree = (await readdir(options.cwd)).includes('feature.txt');
      throw new Error('unexpected');
    };
    await expect(
      runLocalChecks(
        {
          repoRoot: repo.root,
          headSHA: revision,
          command: 'true',
          timeoutMs: 1_000,
          logsDir,
          worktreeParentDir,
        },
        { runCommand: failing },
      ),
    ).rejects.toThrow('unexpected');
    expect(sawWorktree).toBe(true);
    await expectNoWorktreeLeft();
  });

  it('removes the worktree even when the command deletes its .git file and makes files read-only', async () => {
    const result = await checks('chmod -R a-w . ; rm -rf .git');
    expect(['success', 'failure']).toContain(result.status);
    await expectNoWorktreeLeft();
  });

  it('never touches the user checkout and hides git location variables from the command', async () => {
    await repo.write({ 'README.md': '# dirty\n' });
    await repo.git(['add', 'README.md']);
    await repo.write({ 'README.md': '# dirtier\n', 'untracked.txt': 'x' });
    const before = await repo.git(['status', '--porcelain=v2', '--untracked-files=all']);
    const indexBefore = await readFile(join(repo.root, '.git/index'));

    const result = await checks(
      'test -z "$GIT_INDEX_FILE$GIT_DIR" && cat README.md && git status --porcelain',
      {
        env: {
          ...process.env,
          GIT_INDEX_FILE: join(repo.root, '.git/index'),
          GIT_DIR: join(repo.root, '.git'),
        },
      },
    );

    expect(result.status).toBe('success');
    expect(await readFile(result.logPath!, 'utf8')).toContain('# sample');
    expect(await repo.git(['status', '--porcelain=v2', '--untracked-files=all'])).toBe(before);
    expect(await readFile(join(repo.root, '.git/index'))).toEqual(indexBefore);
    expect(await repo.git(['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('main\n');
  });

  it("by default works in .flotilla/tmp/checks-* of the repository, named in the command's environment, and removes it", async () => {
    const result = await checks('pwd -P; echo "marker=$FLOTILLA_CHECKS_WORKTREE"', {
      worktreeParentDir: undefined,
    });
    expect(result.status).toBe('success');
    const log = await readFile(result.logPath!, 'utf8');
    const scratchDir = join(await realpath(repo.root), '.flotilla', 'tmp');
    const cwd = log.split('\n').find((line) => line.startsWith(`${scratchDir}/checks-`));
    expect(cwd, log).toBeDefined();
    expect(log).toContain(`marker=${join(repo.root, '.flotilla', 'tmp')}/checks-`);
    expect(await readdir(scratchDir)).toEqual([]);
    expect(await repo.git(['worktree', 'list', '--porcelain'])).not.toContain('checks-');
  });

  it('runs concurrent checks in separate worktrees with separate logs', async () => {
    const results = await Promise.all([checks('sleep 0.2; echo one'), checks('sleep 0.2; echo two; exit 1')]);
    expect(results.map((result) => result.status)).toEqual(['success', 'failure']);
    expect(new Set(results.map((result) => result.logPath)).size).toBe(2);
    await expectNoWorktreeLeft();
  });

  it('throws, naming the revision, when the commit does not exist, and leaves nothing behind', async () => {
    await expect(checks('true', { headSHA: 'deadbeef'.repeat(5) })).rejects.toThrow(
      /deadbeef.* is not a commit/,
    );
    await expectNoWorktreeLeft();
  });
});

async function expectProcessGone(pid: number): Promise<void> {
  expect(pid).toBeGreaterThan(0);
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    if (!isProcessRunning(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(isProcessRunning(pid)).toBe(false);
}

/** Waits until the command wrote `path` (non-empty), i.e. it is running. */
async function waitForFile(path: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const content = await readFile(path, 'utf8').catch(() => '');
    if (content.trim() !== '') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${path} was never written`);
}
