import { readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTempGitRepo } from '../../test/support/shared/create-temp-git-repo.ts';
import { isProcessRunning } from '../../test/support/shared/is-process-running.ts';
import { CommandError, isWorktreeInFlux, outputTail, runCommand, runGit } from './run-command.ts';

describe('runCommand', () => {
  it('captures stdout and stderr of a successful command', async () => {
    const result = await runCommand('sh', ['-c', 'printf out; printf err >&2'], { cwd: tmpdir() });
    expect(result).toEqual({ exitCode: 0, stdout: 'out', stdoutBytes: Buffer.from('out'), stderr: 'err' });
  });

  it('keeps the exact stdout bytes when they are not UTF-8', async () => {
    const result = await runCommand('printf', ['caf\\351'], { cwd: tmpdir() });
    expect(result.stdoutBytes).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  });

  it('passes arguments without a shell', async () => {
    const result = await runCommand('printf', ['%s|', 'a b', '$HOME', '; rm -rf x'], { cwd: tmpdir() });
    expect(result.stdout).toBe('a b|$HOME|; rm -rf x|');
  });

  it('hands each chunk to onOutput as it arrives, per stream', async () => {
    const seen: string[] = [];
    await runCommand('sh', ['-c', 'echo out; echo err >&2'], {
      cwd: tmpdir(),
      onOutput: (stream, chunk) => seen.push(`${stream}:${chunk.toString('utf8')}`),
    });
    expect(seen.sort()).toEqual(['stderr:err\n', 'stdout:out\n']);
  });

  it('writes the input to stdin', async () => {
    const result = await runCommand('cat', [], { cwd: tmpdir(), input: 'hello\n' });
    expect(result.stdout).toBe('hello\n');
  });

  it('rejects with the exit code and the output tail when the command fails', async () => {
    const error = await runCommand('sh', ['-c', 'echo first; echo boom >&2; exit 3'], {
      cwd: tmpdir(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    const commandError = error as CommandError;
    expect(commandError.exitCode).toBe(3);
    expect(commandError.stderr).toBe('boom\n');
    expect(commandError.message).toContain('exited with code 3');
    expect(commandError.message).toContain('boom');
  });

  it('accepts the exit codes it is told to accept', async () => {
    const result = await runCommand('sh', ['-c', 'exit 1'], { cwd: tmpdir(), okExitCodes: [0, 1] });
    expect(result.exitCode).toBe(1);
  });

  it('rejects when the program does not exist', async () => {
    const error = await runCommand('flotilla-no-such-program', [], { cwd: tmpdir() }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CommandError);
    expect((error as CommandError).message).toContain('could not run');
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const error = await runCommand('sh', ['-c', 'sleep 30 & echo $!; wait'], {
      cwd: tmpdir(),
      timeoutMs: 300,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandError);
    const commandError = error as CommandError;
    expect(commandError.timedOut).toBe(true);
    expect(commandError.message).toContain('timed out after 300 ms');
    const grandchild = Number(commandError.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isProcessRunning(grandchild)).toBe(false);
  });

  it('kills the whole process group when the abort signal fires, and says it was cancelled', async () => {
    const controller = new AbortController();
    const running = runCommand('sh', ['-c', 'sleep 30 & echo $!; wait'], {
      cwd: tmpdir(),
      timeoutMs: 60_000,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    const error = (await running) as CommandError;
    expect(error).toBeInstanceOf(CommandError);
    expect(error.cancelled).toBe(true);
    expect(error.timedOut).toBe(false);
    expect(error.message).toContain('cancelled');
    const grandchild = Number(error.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isProcessRunning(grandchild)).toBe(false);
  });

  it('kills a command whose signal was aborted before it started', async () => {
    const error = (await runCommand('sh', ['-c', 'echo $$; sleep 30'], {
      cwd: tmpdir(),
      signal: AbortSignal.abort(),
    }).catch((e: unknown) => e)) as CommandError;
    expect(error).toBeInstanceOf(CommandError);
    expect(error.cancelled).toBe(true);
  });

  it('is not cancelled by a signal that never fires', async () => {
    const result = await runCommand('printf', ['ok'], {
      cwd: tmpdir(),
      signal: new AbortController().signal,
    });
    expect(result.stdout).toBe('ok');
  });
});

describe('outputTail', () => {
  it('keeps the last lines only', () => {
    const output = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const tail = outputTail(output, 3);
    expect(tail).toBe('line 27\nline 28\nline 29');
  });

  it('caps the number of characters', () => {
    expect(outputTail('x'.repeat(50), 20, 10)).toBe(`…${'x'.repeat(10)}`);
  });
});

describe('runGit over a linked worktree entry in flux', () => {
  /**
   * A repository with one linked worktree whose `commondir` is empty: what another git's `worktree add` leaves
   * between creating the file and writing it. `finish` writes it.
   */
  async function withEntryBeingWritten(
    check: (repo: { root: string; finish: () => Promise<void> }) => Promise<void>,
  ): Promise<void> {
    const repo = await createTempGitRepo();
    try {
      await repo.commit('base');
      await repo.git(['worktree', 'add', '--quiet', '--detach', join(repo.root, 'linked'), 'HEAD']);
      const commondir = join(repo.root, '.git', 'worktrees', 'linked', 'commondir');
      const content = await readFile(commondir);
      await writeFile(commondir, '');
      await check({ root: repo.root, finish: () => writeFile(commondir, content) });
    } finally {
      await repo.cleanup();
    }
  }

  it('reproduces the race: git itself dies reading the entry (exit 128, "failed to read …/commondir")', async () => {
    await withEntryBeingWritten(async ({ root }) => {
      const error = await runCommand('git', ['worktree', 'list', '--porcelain', '-z'], { cwd: root }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(CommandError);
      expect((error as CommandError).exitCode).toBe(128);
      expect((error as CommandError).stderr).toMatch(/failed to read .*worktrees\/linked\/commondir/);
      expect(isWorktreeInFlux(error)).toBe(true);
    });
  });

  it('runs the command again once the entry is whole, and returns its output', async () => {
    await withEntryBeingWritten(async ({ root, finish }) => {
      const attempts: number[] = [];
      const { stdout } = await runGit(['worktree', 'list', '--porcelain', '-z'], {
        cwd: root,
        waitForWorktreeEntry: async (attempt) => {
          attempts.push(attempt);
          await finish();
        },
      });
      expect(attempts).toEqual([1]);
      expect(stdout.split('\0')).toContain(`worktree ${await realpath(join(root, 'linked'))}`);
    });
  });

  it('retries other commands that list worktrees too (branch -D)', async () => {
    await withEntryBeingWritten(async ({ root, finish }) => {
      await runGit(['branch', 'doomed'], { cwd: root });
      let waits = 0;
      await runGit(['branch', '-D', 'doomed'], {
        cwd: root,
        waitForWorktreeEntry: async () => {
          waits += 1;
          await finish();
        },
      });
      expect(waits).toBe(1);
      await expect(
        runGit(['rev-parse', '--verify', '--quiet', 'refs/heads/doomed'], { cwd: root }),
      ).rejects.toThrow();
    });
  });

  it("gives up after three retries when the entry stays broken, with git's own error", async () => {
    await withEntryBeingWritten(async ({ root }) => {
      const attempts: number[] = [];
      const error = await runGit(['worktree', 'list', '--porcelain'], {
        cwd: root,
        waitForWorktreeEntry: async (attempt) => {
          attempts.push(attempt);
        },
      }).catch((caught: unknown) => caught);
      expect(attempts).toEqual([1, 2, 3]);
      expect(isWorktreeInFlux(error)).toBe(true);
    });
  });

  it('does not retry any other failure', async () => {
    const repo = await createTempGitRepo();
    try {
      let waits = 0;
      const error = await runGit(['rev-parse', '--verify', 'no-such-ref'], {
        cwd: repo.root,
        waitForWorktreeEntry: async () => {
          waits += 1;
        },
      }).catch((caught: unknown) => caught);
      expect((error as CommandError).exitCode).toBe(128);
      expect(isWorktreeInFlux(error)).toBe(false);
      expect(waits).toBe(0);
    } finally {
      await repo.cleanup();
    }
  });
});
