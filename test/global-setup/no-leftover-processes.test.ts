import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { findMarkedProcesses } from '../support/find-marked-processes.ts';
import { startLeftoverProcessGuard, TEST_RUN_VARIABLE } from './no-leftover-processes.ts';

/** A shell whose `sleep` child outlives it: the shell exits at once, the child is reparented. */
function spawnOrphanMaker(): ChildProcess {
  return spawn('sh', ['-c', 'sleep 300 & exit 0'], { stdio: 'ignore', detached: true });
}

const runMarker = process.env[TEST_RUN_VARIABLE];
afterEach(() => {
  // The guard under test re-marks this worker; give the run's own marker back.
  if (runMarker === undefined) delete process.env[TEST_RUN_VARIABLE];
  else process.env[TEST_RUN_VARIABLE] = runMarker;
});

describe('the leftover-process guard (vitest global setup)', () => {
  it('fails naming a process the tests left running, even one reparented away from them, and ends it', async () => {
    const teardown = startLeftoverProcessGuard({ graceMs: 300 });
    const marker = `${TEST_RUN_VARIABLE}=${process.env[TEST_RUN_VARIABLE]}`;
    const shell = spawnOrphanMaker();
    await new Promise((resolve) => shell.on('exit', resolve));
    // The shell's forked child may not have exec'd `sleep` yet (under load): wait until it has.
    const deadline = Date.now() + 10_000;
    while (
      Date.now() < deadline &&
      !findMarkedProcesses(marker).some((found) => found.command === 'sleep 300')
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    const [orphan] = findMarkedProcesses(marker);
    expect(orphan?.command).toBe('sleep 300');
    expect(orphan?.parentPid).not.toBe(process.pid);

    await expect(teardown()).rejects.toThrow(new RegExp(`pid ${orphan?.pid} \\(parent \\d+\\): sleep 300`));
    expect(findMarkedProcesses(marker)).toEqual([]);
  });

  it('passes when what the tests started has ended within the grace period', async () => {
    const teardown = startLeftoverProcessGuard({ graceMs: 5_000 });
    const child = spawn('sh', ['-c', 'sleep 0.2'], { stdio: 'ignore' });
    await expect(teardown()).resolves.toBeUndefined();
    expect(child.exitCode ?? (await new Promise((resolve) => child.on('exit', resolve)))).toBe(0);
  });

  it('does not count processes of another run (another marker)', async () => {
    const other = spawn('sleep', ['300'], {
      stdio: 'ignore',
      env: { ...process.env, [TEST_RUN_VARIABLE]: 'another-run' },
    });
    try {
      const teardown = startLeftoverProcessGuard({ graceMs: 0 });
      await expect(teardown()).resolves.toBeUndefined();
    } finally {
      other.kill('SIGKILL');
    }
  });
});
