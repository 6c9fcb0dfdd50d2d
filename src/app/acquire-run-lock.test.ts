import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../../test/support/shared/create-temp-dir.ts';
import { acquireRunLock, RunLockError } from './acquire-run-lock.ts';

let dir: ReturnType<typeof createTempDir>;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = createTempDir('flotilla-run-lock-');
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  dir.remove();
});

const lockPath = () => join(dir.path, 'run.lock');

/** A live process other than this one, to hold a lock. */
function otherProcess(): number {
  const child = spawn('sleep', ['60']);
  children.push(child);
  if (child.pid === undefined) throw new Error('could not start sleep');
  return child.pid;
}

/** /proc/<pid>/stat field 22, as the lock records it. */
function processStart(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
}

function writeLock(record: Record<string, unknown>): void {
  writeFileSync(lockPath(), JSON.stringify(record));
}

describe('acquireRunLock', () => {
  it('creates the lock with this process, and release removes it', () => {
    const lock = acquireRunLock(dir.path);
    const record = JSON.parse(readFileSync(lockPath(), 'utf8'));
    expect(record).toMatchObject({
      pid: process.pid,
      hostname: hostname(),
      processStart: processStart(process.pid),
    });
    lock.release();
    expect(existsSync(lockPath())).toBe(false);
    lock.release(); // idempotent
  });

  it('refuses while another live process holds it, naming the process and what to do; the lock is kept', () => {
    const pid = otherProcess();
    writeLock({
      pid,
      processStart: processStart(pid),
      hostname: hostname(),
      startedAt: '2026-11-22T08:00:00.000Z',
    });
    const attempt = () => acquireRunLock(dir.path);
    expect(attempt).toThrow(RunLockError);
    expect(attempt).toThrow(
      new RegExp(
        `already running in this repository \\(pid ${pid} on .*since 2026-11-22T08:00:00.000Z\\); stop it first`,
      ),
    );
    expect(JSON.parse(readFileSync(lockPath(), 'utf8')).pid).toBe(pid);
  });

  it('a second acquire in the same process is refused too (one control plane per repository)', () => {
    const lock = acquireRunLock(dir.path);
    expect(() => acquireRunLock(dir.path)).toThrow(RunLockError);
    lock.release();
    acquireRunLock(dir.path).release();
  });

  it('takes over a lock whose process is gone', async () => {
    const child = spawn('sleep', ['60']);
    const pid = child.pid ?? 0;
    const start = processStart(pid);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    writeLock({ pid, processStart: start, hostname: hostname(), startedAt: 'earlier' });
    const lock = acquireRunLock(dir.path);
    expect(JSON.parse(readFileSync(lockPath(), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock whose pid now belongs to another process (different start time)', () => {
    const pid = otherProcess();
    writeLock({ pid, processStart: '1', hostname: hostname(), startedAt: 'earlier' });
    acquireRunLock(dir.path).release();
  });

  it.each([
    ['empty (cut short by a crash)', ''],
    ['not JSON', 'pid=12'],
    ['no pid', '{"hostname":"x"}'],
  ])('takes over an unreadable lock file: %s', (_label, content) => {
    writeFileSync(lockPath(), content);
    const lock = acquireRunLock(dir.path);
    expect(JSON.parse(readFileSync(lockPath(), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('assumes a lock taken on another host is held (it cannot be checked from here)', () => {
    writeLock({ pid: 1, processStart: null, hostname: `not-${hostname()}`, startedAt: 'earlier' });
    expect(() => acquireRunLock(dir.path)).toThrow(/already running in this repository/);
  });

  it('release leaves alone a lock that another process has taken since', () => {
    const lock = acquireRunLock(dir.path);
    const pid = otherProcess();
    writeLock({ pid, processStart: processStart(pid), hostname: hostname(), startedAt: 'later' });
    lock.release();
    expect(JSON.parse(readFileSync(lockPath(), 'utf8')).pid).toBe(pid);
  });
  describe('a cluster worker shares the lock (a worker and a control plane each need their own clone)', () => {
    const liveLock = (holder: string | undefined) => {
      const pid = otherProcess();
      writeLock({
        ...(holder !== undefined && { holder }),
        pid,
        processStart: processStart(pid),
        hostname: hostname(),
        startedAt: 'earlier',
      });
      return pid;
    };

    it("records who holds it: a worker's lock says so", () => {
      const lock = acquireRunLock(dir.path, { holder: 'worker' });
      expect(JSON.parse(readFileSync(lockPath(), 'utf8'))).toMatchObject({
        holder: 'worker',
        pid: process.pid,
      });
      lock.release();
    });

    it("a leading controller's takeover never overrides a live worker's lock", () => {
      const pid = liveLock('worker');
      expect(() => acquireRunLock(dir.path, { takeOver: true })).toThrow(
        /a flotilla worker runs in this clone \(pid \d+ .*\); run the controller in another clone/,
      );
      expect(JSON.parse(readFileSync(lockPath(), 'utf8')).pid).toBe(pid);
    });

    it("a leading controller still takes over a live control plane's lock, also one written before holders", () => {
      for (const holder of ['control plane', undefined]) {
        liveLock(holder);
        const lock = acquireRunLock(dir.path, { takeOver: true });
        expect(JSON.parse(readFileSync(lockPath(), 'utf8')).pid).toBe(process.pid);
        lock.release();
      }
    });

    it('a worker refuses a clone where flotilla run or another worker runs, saying what to do', () => {
      liveLock(undefined);
      expect(() => acquireRunLock(dir.path, { holder: 'worker' })).toThrow(
        /flotilla run \(the controller\) runs in this clone .*start the worker in another clone/,
      );
      liveLock('worker');
      expect(() => acquireRunLock(dir.path, { holder: 'worker' })).toThrow(
        /a flotilla worker already runs in this clone .*give it more --slots instead/,
      );
    });
  });
});
