import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessRunning } from '../../../test/support/shared/is-process-running.ts';
import { CommandError } from '../../process/run-command.ts';
import { runValidationCommands } from './run-validation-commands.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flotilla-validation-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (commands: string[], overrides: { timeoutMs?: number; signal?: AbortSignal } = {}) => {
  const progress: string[] = [];
  const outcome = runValidationCommands({
    commands,
    cwd: dir,
    timeoutMs: overrides.timeoutMs ?? 30_000,
    env: { PATH: process.env.PATH ?? '', SECRET_MARK: 'visible' },
    signal: overrides.signal ?? new AbortController().signal,
    onProgress: (line) => progress.push(line),
  });
  return { outcome, progress };
};

describe('runValidationCommands', () => {
  it('runs every command in the worktree, in order, and passes when all do', async () => {
    const { outcome, progress } = run(['echo one > a.txt', 'test "$(cat a.txt)" = one']);
    expect(await outcome).toEqual({ passed: true });
    expect(progress).toEqual([
      '$ echo one > a.txt',
      'validation passed: echo one > a.txt',
      '$ test "$(cat a.txt)" = one',
      'validation passed: test "$(cat a.txt)" = one',
    ]);
  });

  it('stops at the first failure with its exit code and interleaved output, in the given environment', async () => {
    const { outcome, progress } = run([
      'echo "out $SECRET_MARK"; echo err >&2; echo more; exit 3',
      'touch never-ran',
    ]);
    expect(await outcome).toEqual({
      passed: false,
      failure: {
        command: 'echo "out $SECRET_MARK"; echo err >&2; echo more; exit 3',
        reason: 'exited with code 3',
        output: 'out visible\nerr\nmore\n',
      },
    });
    expect(progress.at(-1)).toBe(
      'validation failed: echo "out $SECRET_MARK"; echo err >&2; echo more; exit 3 (exited with code 3)',
    );
  });

  it('kills a command that outlives its timeout, with everything it started, and reports the timeout', async () => {
    const pidFile = join(dir, 'child.pid');
    const { outcome } = run([`sh -c 'echo $$ > ${pidFile}; exec tail -f /dev/null' & wait`], {
      timeoutMs: 1_000,
    });
    const result = await outcome;
    expect(result).toMatchObject({ passed: false, failure: { reason: 'timed out after 1 s' } });
    const { readFile } = await import('node:fs/promises');
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    await expect.poll(() => isProcessRunning(pid), { timeout: 5_000 }).toBe(false);
  });

  it('an abort (the run is cancelled) kills the command and rejects', async () => {
    const controller = new AbortController();
    await writeFile(join(dir, 'slow.sh'), 'exec tail -f /dev/null\n');
    const { outcome, progress } = run(['sh slow.sh', 'touch never-ran'], { signal: controller.signal });
    setTimeout(() => controller.abort('cancelled'), 300);
    const error = await outcome.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CommandError);
    expect((error as CommandError).cancelled).toBe(true);
    expect(progress).toEqual(['$ sh slow.sh']);
  });
});
